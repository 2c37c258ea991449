/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_elementwise_sub_f16, float16 SUB of two equally shaped tensors. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/* The operation and the clamp in float16, as ns-cmsis-nn writes them. */
typedef float16_t flt_t;
typedef _Float16 flt_arith_t;
#define flt_clamp_keep_nan helia_clamp_keep_nan_f16
#define ELEMENTWISE_FLT_OP(a, b) ((a) - (b))
#define ARM_ELEMENTWISE_FLT arm_elementwise_sub_f16
#include "arm_elementwise_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
