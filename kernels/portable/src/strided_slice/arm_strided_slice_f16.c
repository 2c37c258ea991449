/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_strided_slice_f16, STRIDED_SLICE of a float16 NHWC tensor. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F16

typedef float16_t flt_t;
#define ARM_STRIDED_SLICE_FLT arm_strided_slice_f16
#include "arm_strided_slice_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
