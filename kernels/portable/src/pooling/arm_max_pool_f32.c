/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_max_pool_f32, float32 MAX_POOL_2D (NHWC). */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/* Clamps send a NaN to the upper bound, as ns-cmsis-nn's CLAMP does. */
typedef float32_t flt_t;
typedef float32_t flt_arith_t;
typedef cmsis_nn_pool_params_f32 flt_pool_params_t;
#define FLT_FINITE_MAX ARM_NN_F32_FINITE_MAX
#define flt_clamp_output helia_clamp_nan_high_f32

/* The larger of a and b as ns-cmsis-nn picks it: a > b ? a : b (so NaN handling follows the order). */
static inline float32_t flt_larger(float32_t a, float32_t b)
{
    return (a > b) ? a : b;
}

#define ARM_MAX_POOL_FLT arm_max_pool_f32
#include "arm_max_pool_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
