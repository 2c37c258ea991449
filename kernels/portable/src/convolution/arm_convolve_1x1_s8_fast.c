/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_1x1_s8_fast, CONV_2D with a 1x1 filter, stride 1, no padding. */

#include "arm_nnfunctions.h"
#include "conv_core.h"

arm_cmsis_nn_status arm_convolve_1x1_s8_fast(const cmsis_nn_context *ctx,
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
    (void)filter_dims; /* implied: output channels x 1 x 1 x input channels */
    if (conv_params->padding.w != 0 || conv_params->padding.h != 0 || conv_params->stride.w != 1 ||
        conv_params->stride.h != 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    /* Every input pixel maps to the output pixel at the same place: one output row per input pixel. */
    const cmsis_nn_dims pointwise_filter = {output_dims->c, 1, 1, input_dims->c};
    const cmsis_nn_dims pixel_grid = {input_dims->n, input_dims->h, input_dims->w, output_dims->c};
    cmsis_nn_conv_params pointwise = *conv_params;
    pointwise.dilation.w = 1;
    pointwise.dilation.h = 1;
    return helia_convolve_s8_reference(&pointwise,
                                       quant_params,
                                       input_dims,
                                       input_data,
                                       &pointwise_filter,
                                       filter_data,
                                       bias_data,
                                       NULL,
                                       &pixel_grid,
                                       output_data);
}
