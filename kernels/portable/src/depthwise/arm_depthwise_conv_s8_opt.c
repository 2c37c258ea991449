/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_s8_opt, DEPTHWISE_CONV_2D with channel multiplier 1. */

#include "arm_nnfunctions.h"

arm_cmsis_nn_status arm_depthwise_conv_s8_opt(const cmsis_nn_context *ctx,
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
    (void)weight_sum_ctx;
    if (input_dims->c != output_dims->c)
    {
        return ARM_CMSIS_NN_ARG_ERROR; /* only a channel multiplier of 1 is supported */
    }
    /* ns-cmsis-nn's plain-C build runs the general kernel here too. */
    return arm_depthwise_conv_s8(ctx, dw_conv_params, quant_params, input_dims, input_data, filter_dims, filter_data,
                                 bias_dims, bias_data, output_dims, output_data);
}
