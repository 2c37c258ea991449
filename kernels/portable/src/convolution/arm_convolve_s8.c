/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_s8, the general CONV_2D kernel. */

#include "arm_nnfunctions.h"
#include "conv_core.h"

arm_cmsis_nn_status arm_convolve_s8(const cmsis_nn_context *ctx,
                                    const cmsis_nn_context *weight_sum_ctx,
                                    const cmsis_nn_conv_params *conv_params,
                                    const cmsis_nn_per_channel_quant_params *quant_params,
                                    const cmsis_nn_dims *input_dims,
                                    const int8_t *input_data,
                                    const cmsis_nn_dims *filter_dims,
                                    const int8_t *filter_data,
                                    const cmsis_nn_dims *bias_dims,
                                    const int32_t *bias_data,
                                    const cmsis_nn_dims *upscale_dims,
                                    const cmsis_nn_dims *output_dims,
                                    int8_t *output_data)
{
    (void)ctx;            /* computed directly, no im2col scratch */
    (void)weight_sum_ctx; /* the input offset is applied per tap instead of via precomputed sums */
    (void)bias_dims;
    return helia_convolve_s8_reference(conv_params,
                                       quant_params,
                                       input_dims,
                                       input_data,
                                       filter_dims,
                                       filter_data,
                                       bias_data,
                                       upscale_dims,
                                       output_dims,
                                       output_data);
}
