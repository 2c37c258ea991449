/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private float16 CONV_2D arithmetic, one function per summation order. */

#include "../support/flt_support.h"
#include "conv_flt_core.h"

#if ARM_NN_ENABLE_F16

/*
 * The float32 orders (conv_flt_core_body.h), with ns-cmsis-nn's float16 rounding:
 *  - 1x1, PATCH and DIRECT keep every partial sum in float16: each dot product step is
 *    dot = dot + x*w rounded to float16, and acc = acc + dot rounded to float16; the result is
 *    clamped with NaN going to the upper bound;
 *  - ROW_3 / ROW_5 sum in float32 and round once, then clamp letting a NaN through.
 */
typedef float16_t flt_t;
typedef _Float16 flt_sum_t;
typedef cmsis_nn_activation_f16 flt_activation_t;
#define flt_clamp_nan_high helia_clamp_nan_high_f16
#define flt_clamp_row helia_clamp_keep_nan_f16

#define HELIA_CONV_FLT_RUN helia_conv_f16_run
#include "conv_flt_core_body.h"

#endif /* ARM_NN_ENABLE_F16 */
