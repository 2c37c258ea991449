/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_softmax_f16, float16 SOFTMAX (beta 1) over rows. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/*
 * As float32: x - max rounded to float16, exp in float16 (ns-cmsis-nn's approximation, which
 * saturates for x - max below about -9.7; see README), the sum in float32, 1 / sum rounded to float16
 * and each exp times it rounded to float16. The running maximum is picked on the bit patterns.
 */
typedef float16_t flt_t;
typedef _Float16 flt_arith_t;
#define flt_exp helia_exp_f16

static inline _Float16 flt_larger(_Float16 x, _Float16 largest)
{
    return helia_pick_f16(x > largest, x, largest);
}

#define ARM_SOFTMAX_FLT arm_softmax_f16
#include "arm_softmax_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
