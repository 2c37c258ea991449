/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_wrapper_s8, picks the DEPTHWISE_CONV_2D entry point. */

#include "arm_nnfunctions.h"

arm_cmsis_nn_status arm_depthwise_conv_wrapper_s8(const cmsis_nn_context *ctx,
                                                  const cmsis_nn_context *weight_sum_ctx,
                                                  const cmsis_nn_dw_conv_params *dw_conv_params,
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
    /* Same dispatch as ns-cmsis-nn's plain-C build. */
    const int single_image_no_dilation = input_dims->n == 1 && dw_conv_params->dilation.w == 1 &&
        dw_conv_params->dilation.h == 1;
    if (dw_conv_params->ch_mult == 1 && single_image_no_dilation)
    {
        if (filter_dims->w == 3 && filter_dims->h == 3 && dw_conv_params->padding.h <= 1 &&
            dw_conv_params->padding.w <= 1)
        {
            return arm_depthwise_conv_3x3_s8(ctx, dw_conv_params, quant_params, input_dims, input_data, filter_dims,
                                             filter_data, bias_dims, bias_data, output_dims, output_data);
        }
        return arm_depthwise_conv_s8_opt(ctx, weight_sum_ctx, dw_conv_params, quant_params, input_dims, input_data,
                                         filter_dims, filter_data, bias_dims, bias_data, output_dims, output_data);
    }
    return arm_depthwise_conv_s8(ctx, dw_conv_params, quant_params, input_dims, input_data, filter_dims, filter_data,
                                 bias_dims, bias_data, output_dims, output_data);
}
