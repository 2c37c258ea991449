/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private float32 CONV_2D arithmetic, one function per summation order. */

#include "../support/flt_support.h"
#include "conv_flt_core.h"

#if ARM_NN_ENABLE_F32

/* Every sum in float32; the ROW_3 / ROW_5 result is clamped as the others (NaN to the upper bound). */
typedef float32_t flt_t;
typedef float32_t flt_sum_t;
typedef cmsis_nn_activation_f32 flt_activation_t;
#define flt_clamp_nan_high helia_clamp_nan_high_f32
#define flt_clamp_row helia_clamp_nan_high_f32

#define HELIA_CONV_FLT_RUN helia_conv_f32_run
#include "conv_flt_core_body.h"

#endif /* ARM_NN_ENABLE_F32 */
