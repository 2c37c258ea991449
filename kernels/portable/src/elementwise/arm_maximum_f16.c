/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_maximum_f16, float16 MAXIMUM with NumPy broadcasting (NHWC). */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

typedef float16_t flt_t;

/* a >= b (compared in float32) picks a for the maximum and b for the minimum, else the other one;
 * the pick is made on the bit patterns. */
static inline float16_t flt_select(float16_t a, float16_t b)
{
    const int a_ge_b = (float32_t)a >= (float32_t)b;
    return (float16_t)helia_pick_f16(a_ge_b == 1, (_Float16)a, (_Float16)b);
}

#define ARM_MINMAX_FLT arm_maximum_f16
#include "minmax_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
