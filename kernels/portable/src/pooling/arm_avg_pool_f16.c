/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_avg_pool_f16, float16 AVERAGE_POOL_2D (NHWC). */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/* The mean is rounded to float16 once before the clamp, which lets a NaN through. */
typedef float16_t flt_t;
typedef _Float16 flt_arith_t;
typedef cmsis_nn_pool_params_f16 flt_pool_params_t;
#define flt_clamp_output helia_clamp_keep_nan_f16
#define ARM_AVG_POOL_FLT arm_avg_pool_f16
#include "arm_avg_pool_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
