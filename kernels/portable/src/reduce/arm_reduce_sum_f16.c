/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_reduce_sum_f16, SUM of a float16 NHWC tensor over chosen axes. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F16

typedef float16_t flt_t;
#define ARM_REDUCE_SUM_FLT arm_reduce_sum_f16
#include "arm_reduce_sum_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
