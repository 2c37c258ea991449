/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_transpose_conv_wrapper_f32 / _f32 / _nhwc_f32, float32 TRANSPOSE_CONV. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/* The final clamp sends a NaN to the upper bound. */
typedef float32_t flt_t;
typedef float32_t flt_arith_t;
typedef cmsis_nn_transpose_conv_params_f32 flt_transpose_conv_params_t;
#define flt_clamp_output helia_clamp_nan_high_f32
#define ARM_TRANSPOSE_CONV_NHWC_FLT arm_transpose_conv_nhwc_f32
#define ARM_TRANSPOSE_CONV_FLT arm_transpose_conv_f32
#define ARM_TRANSPOSE_CONV_WRAPPER_FLT arm_transpose_conv_wrapper_f32
#define ARM_TRANSPOSE_CONV_FLT_GET_BUFFER_SIZE arm_transpose_conv_f32_get_buffer_size
#define ARM_TRANSPOSE_CONV_FLT_GET_REVERSE_CONV_BUFFER_SIZE arm_transpose_conv_f32_get_reverse_conv_buffer_size
#include "arm_transpose_conv_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
