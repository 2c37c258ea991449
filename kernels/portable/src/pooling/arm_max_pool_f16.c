/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_max_pool_f16, float16 MAX_POOL_2D (NHWC). */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/* Clamps let a NaN through, as ns-cmsis-nn's float16 clamp does. */
typedef float16_t flt_t;
typedef _Float16 flt_arith_t;
typedef cmsis_nn_pool_params_f16 flt_pool_params_t;
#define FLT_FINITE_MAX ARM_NN_F16_FINITE_MAX
#define flt_clamp_output helia_clamp_keep_nan_f16

/* a > b ? a : b, through the bit patterns. */
static inline _Float16 flt_larger(_Float16 a, _Float16 b)
{
    return helia_pick_f16(a > b, a, b);
}

#define ARM_MAX_POOL_FLT arm_max_pool_f16
#include "arm_max_pool_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
