/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_1x1_f16 / arm_convolve_1x1_nhwc_f16, float16 CONV_2D with a 1x1 filter. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F16

typedef float16_t flt_t;
typedef cmsis_nn_conv_params_f16 flt_conv_params_t;
#define ARM_CONVOLVE_1X1_NHWC_FLT arm_convolve_1x1_nhwc_f16
#define ARM_CONVOLVE_1X1_FLT arm_convolve_1x1_f16
#define HELIA_CONV_FLT_RUN helia_conv_f16_run
#include "arm_convolve_1x1_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
