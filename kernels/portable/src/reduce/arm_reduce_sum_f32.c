/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_reduce_sum_f32, SUM of a float32 NHWC tensor over chosen axes. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;
#define ARM_REDUCE_SUM_FLT arm_reduce_sum_f32
#include "arm_reduce_sum_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
