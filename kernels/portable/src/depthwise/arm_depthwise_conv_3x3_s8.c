/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_3x3_s8, DEPTHWISE_CONV_2D for 3x3 filters, padding <= 1. */

#include "arm_nnfunctions.h"
#include "depthwise_core.h"

arm_cmsis_nn_status arm_depthwise_conv_3x3_s8(const cmsis_nn_context *ctx,
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
    (void)ctx;
    (void)bias_dims;
    if (input_dims->c != output_dims->c || dw_conv_params->padding.w > 1 || filter_dims->w != 3 ||
        filter_dims->h != 3)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    /* This entry point handles one image, channel multiplier 1 and no dilation, whatever the params say. */
    cmsis_nn_dw_conv_params plain = *dw_conv_params;
    plain.ch_mult = 1;
    plain.dilation.w = 1;
    plain.dilation.h = 1;
    helia_depthwise_conv_s8_reference(&plain, quant_params, 1, input_dims, input_data, filter_dims, filter_data,
                                      bias_data, output_dims, output_data);
    return ARM_CMSIS_NN_SUCCESS;
}
