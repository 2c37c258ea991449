/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the float16 DEPTHWISE_CONV_2D *_get_buffer_size functions (ns-cmsis-nn's plain-C sizes). */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F16

typedef float16_t flt_t;
typedef cmsis_nn_dw_conv_params_f16 flt_dw_conv_params_t;
#define ARM_DEPTHWISE_CONV_FLT_GET_BUFFER_SIZE arm_depthwise_conv_f16_get_buffer_size
#define ARM_DEPTHWISE_CONV_WRAPPER_FLT_GET_BUFFER_SIZE arm_depthwise_conv_wrapper_f16_get_buffer_size
#include "arm_depthwise_conv_get_buffer_sizes_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
