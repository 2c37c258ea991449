/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_transpose_conv_wrapper_f16 / _f16 / _nhwc_f16, float16 TRANSPOSE_CONV. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/* Each addition rounded to float16; the final clamp lets a NaN through. */
typedef float16_t flt_t;
typedef _Float16 flt_arith_t;
typedef cmsis_nn_transpose_conv_params_f16 flt_transpose_conv_params_t;
#define flt_clamp_output helia_clamp_keep_nan_f16
#define ARM_TRANSPOSE_CONV_NHWC_FLT arm_transpose_conv_nhwc_f16
#define ARM_TRANSPOSE_CONV_FLT arm_transpose_conv_f16
#define ARM_TRANSPOSE_CONV_WRAPPER_FLT arm_transpose_conv_wrapper_f16
#define ARM_TRANSPOSE_CONV_FLT_GET_BUFFER_SIZE arm_transpose_conv_f16_get_buffer_size
#define ARM_TRANSPOSE_CONV_FLT_GET_REVERSE_CONV_BUFFER_SIZE arm_transpose_conv_f16_get_reverse_conv_buffer_size
#include "arm_transpose_conv_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
