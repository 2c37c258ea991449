/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_pad_f32, PAD of a float32 NHWC tensor with a constant value. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;
#define ARM_PAD_FLT arm_pad_f32
#include "arm_pad_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
