/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the float32 CONV_2D *_get_buffer_size functions (ns-cmsis-nn's plain-C sizes). */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;
typedef cmsis_nn_conv_params_f32 flt_conv_params_t;
#define ARM_CONVOLVE_FLT_GET_BUFFER_SIZE arm_convolve_f32_get_buffer_size
#define ARM_CONVOLVE_WRAPPER_FLT_GET_BUFFER_SIZE arm_convolve_wrapper_f32_get_buffer_size
#define ARM_CONVOLVE_1X1_FLT_GET_BUFFER_SIZE arm_convolve_1x1_f32_get_buffer_size
#define ARM_CONVOLVE_1_X_N_FLT_GET_BUFFER_SIZE arm_convolve_1_x_n_f32_get_buffer_size
#include "arm_convolve_get_buffer_sizes_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
