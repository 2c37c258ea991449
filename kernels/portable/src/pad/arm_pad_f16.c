/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_pad_f16, PAD of a float16 NHWC tensor with a constant value. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F16

typedef float16_t flt_t;
#define ARM_PAD_FLT arm_pad_f16
#include "arm_pad_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
