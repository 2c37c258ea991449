/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_fully_connected_f32 / arm_fully_connected_nhwc_f32, float32 FULLY_CONNECTED. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;
typedef float32_t flt_sum_t;
typedef cmsis_nn_fc_params_f32 flt_fc_params_t;
#define flt_clamp_nan_high helia_clamp_nan_high_f32
#define ARM_FULLY_CONNECTED_NHWC_FLT arm_fully_connected_nhwc_f32
#define ARM_FULLY_CONNECTED_FLT arm_fully_connected_f32
#define ARM_FULLY_CONNECTED_FLT_GET_BUFFER_SIZE arm_fully_connected_f32_get_buffer_size
#include "arm_fully_connected_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
