/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_elementwise_mul_f32, float32 MUL of two equally shaped tensors. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;
typedef float32_t flt_arith_t;
#define flt_clamp_keep_nan helia_clamp_keep_nan_f32
#define ELEMENTWISE_FLT_OP(a, b) ((a) * (b))
#define ARM_ELEMENTWISE_FLT arm_elementwise_mul_f32
#include "arm_elementwise_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
