/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_wrapper_s16, picks the int16 DEPTHWISE_CONV_2D entry point. */

#include "arm_nnfunctions.h"
#include "depthwise_s16_rules.h"

arm_cmsis_nn_status arm_depthwise_conv_wrapper_s16(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_dw_conv_params *dw_conv_params,
                                                   const cmsis_nn_per_channel_quant_params *quant_params,
                                                   const cmsis_nn_dims *input_dims,
                                                   const int16_t *input_data,
                                                   const cmsis_nn_dims *filter_dims,
                                                   const int8_t *filter_data,
                                                   const cmsis_nn_dims *bias_dims,
                                                   const int64_t *bias_data,
                                                   const cmsis_nn_dims *output_dims,
                                                   int16_t *output_data)
{
    /* Same dispatch as ns-cmsis-nn, so the fast entry's argument checks (and status) apply alike. */
    if (helia_depthwise_s16_fast_applies(dw_conv_params, filter_dims))
    {
        return arm_depthwise_conv_fast_s16(ctx, dw_conv_params, quant_params, input_dims, input_data, filter_dims,
                                           filter_data, bias_dims, bias_data, output_dims, output_data);
    }
    return arm_depthwise_conv_s16(ctx, dw_conv_params, quant_params, input_dims, input_data, filter_dims, filter_data,
                                  bias_dims, bias_data, output_dims, output_data);
}
