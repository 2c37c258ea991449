/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_minimum_f32, float32 MINIMUM with NumPy broadcasting (NHWC). */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;

/* ns-cmsis-nn's choice: a >= b picks a for the maximum and b for the minimum, else the other one. */
static inline float32_t flt_select(float32_t a, float32_t b)
{
    return (a >= b) ? (b) : (a);
}

#define ARM_MINMAX_FLT arm_minimum_f32
#include "minmax_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
