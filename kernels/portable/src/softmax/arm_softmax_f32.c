/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_softmax_f32, float32 SOFTMAX (beta 1) over rows. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;
typedef float32_t flt_arith_t;
#define flt_exp helia_exp_f32

static inline float32_t flt_larger(float32_t x, float32_t largest)
{
    return (x > largest) ? x : largest;
}

#define ARM_SOFTMAX_FLT arm_softmax_f32
#include "arm_softmax_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
