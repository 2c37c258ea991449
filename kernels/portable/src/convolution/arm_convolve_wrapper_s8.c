/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_wrapper_s8, picks the CONV_2D entry point for the shapes. */

#include "arm_nnfunctions.h"
#include "conv_shape_rules.h"

arm_cmsis_nn_status arm_convolve_wrapper_s8(const cmsis_nn_context *ctx,
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
    /* Same dispatch as ns-cmsis-nn so argument checks (and status codes) match its plain-C build. */
    if (helia_conv_is_1x1(conv_params, input_dims, filter_dims))
    {
        if (helia_conv_is_1x1_stride_1(conv_params))
        {
            return arm_convolve_1x1_s8_fast(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data,
                                            filter_dims, filter_data, bias_dims, bias_data, output_dims, output_data);
        }
        return arm_convolve_1x1_s8(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data,
                                   filter_dims, filter_data, bias_dims, bias_data, output_dims, output_data);
    }
    if (helia_conv_is_1_x_n(conv_params, input_dims, filter_dims))
    {
        return arm_convolve_1_x_n_s8(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data,
                                     filter_dims, filter_data, bias_dims, bias_data, output_dims, output_data);
    }
    return arm_convolve_s8(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                           filter_data, bias_dims, bias_data, NULL, output_dims, output_data);
}
