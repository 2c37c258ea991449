/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_1_x_n_f32 / arm_convolve_1_x_n_nhwc_f32, float32 CONV_2D of one row. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;
typedef cmsis_nn_conv_params_f32 flt_conv_params_t;
#define ARM_CONVOLVE_1_X_N_NHWC_FLT arm_convolve_1_x_n_nhwc_f32
#define ARM_CONVOLVE_1_X_N_FLT arm_convolve_1_x_n_f32
#define HELIA_CONV_FLT_RUN helia_conv_f32_run
#include "arm_convolve_1_x_n_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
