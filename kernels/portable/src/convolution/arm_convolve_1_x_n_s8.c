/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_1_x_n_s8, CONV_2D over a single input row. */

#include "arm_nnfunctions.h"
#include "conv_core.h"

arm_cmsis_nn_status arm_convolve_1_x_n_s8(const cmsis_nn_context *ctx,
                                          const cmsis_nn_context *weight_sum_ctx,
                                          const cmsis_nn_conv_params *conv_params,
                                          const cmsis_nn_per_channel_quant_params *quant_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const int8_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const int32_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          int8_t *output_data)
{
    (void)ctx;
    (void)weight_sum_ctx;
    (void)bias_dims;
    /* The same shape constraints ns-cmsis-nn enforces, so callers see the same status codes. */
    if (input_dims->h != 1 || conv_params->dilation.w != 1 || conv_params->stride.w == 0 ||
        (conv_params->stride.w * input_dims->c) % 4 != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return helia_convolve_s8_reference(conv_params,
                                       quant_params,
                                       input_dims,
                                       input_data,
                                       filter_dims,
                                       filter_data,
                                       bias_data,
                                       NULL,
                                       output_dims,
                                       output_data);
}
