/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_strided_slice_f32, STRIDED_SLICE of a float32 NHWC tensor. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;
#define ARM_STRIDED_SLICE_FLT arm_strided_slice_f32
#include "arm_strided_slice_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
