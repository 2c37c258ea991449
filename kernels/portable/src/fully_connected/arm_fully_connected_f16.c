/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_fully_connected_f16 / arm_fully_connected_nhwc_f16, float16 FULLY_CONNECTED. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/* As float32, every partial sum rounded to float16: dot = dot + x*w per step, then bias + dot, then
 * the clamp (a NaN to the upper bound). */
typedef float16_t flt_t;
typedef _Float16 flt_sum_t;
typedef cmsis_nn_fc_params_f16 flt_fc_params_t;
#define flt_clamp_nan_high helia_clamp_nan_high_f16
#define ARM_FULLY_CONNECTED_NHWC_FLT arm_fully_connected_nhwc_f16
#define ARM_FULLY_CONNECTED_FLT arm_fully_connected_f16
#define ARM_FULLY_CONNECTED_FLT_GET_BUFFER_SIZE arm_fully_connected_f16_get_buffer_size
#include "arm_fully_connected_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
