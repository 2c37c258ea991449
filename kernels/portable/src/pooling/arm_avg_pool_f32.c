/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_avg_pool_f32, float32 AVERAGE_POOL_2D (NHWC). */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/* A NaN mean becomes the upper bound, as in ns-cmsis-nn. */
typedef float32_t flt_t;
typedef float32_t flt_arith_t;
typedef cmsis_nn_pool_params_f32 flt_pool_params_t;
#define flt_clamp_output helia_clamp_nan_high_f32
#define ARM_AVG_POOL_FLT arm_avg_pool_f32
#include "arm_avg_pool_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
