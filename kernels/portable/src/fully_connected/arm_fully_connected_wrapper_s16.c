/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_fully_connected_wrapper_s16, per-tensor or per-channel by quant_params. */

#include "arm_nnfunctions.h"

arm_cmsis_nn_status arm_fully_connected_wrapper_s16(const cmsis_nn_context *ctx,
                                                    const cmsis_nn_fc_params *fc_params,
                                                    const cmsis_nn_quant_params *quant_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const int16_t *input_data,
                                                    const cmsis_nn_dims *filter_dims,
                                                    const int8_t *filter_data,
                                                    const cmsis_nn_dims *bias_dims,
                                                    const int64_t *bias_data,
                                                    const cmsis_nn_dims *output_dims,
                                                    int16_t *output_data)
{
    if (quant_params->is_per_channel)
    {
        const cmsis_nn_per_channel_quant_params per_channel = {quant_params->multiplier, quant_params->shift};
        return arm_fully_connected_per_channel_s16(ctx, fc_params, &per_channel, input_dims, input_data, filter_dims,
                                                   filter_data, bias_dims, bias_data, output_dims, output_data);
    }
    const cmsis_nn_per_tensor_quant_params per_tensor = {quant_params->multiplier[0], quant_params->shift[0]};
    return arm_fully_connected_s16(ctx, fc_params, &per_tensor, input_dims, input_data, filter_dims, filter_data,
                                   bias_dims, bias_data, output_dims, output_data);
}
