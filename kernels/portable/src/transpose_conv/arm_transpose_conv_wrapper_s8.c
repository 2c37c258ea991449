/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_transpose_conv_wrapper_s8. */

#include "arm_nnfunctions.h"

/*
 * ns-cmsis-nn runs strides up to 2 with more than 16 input channels as a stride-1 convolution of
 * the zero-point-upscaled input with the spatially reversed filter (in reverse_conv_ctx), and
 * everything else with arm_transpose_conv_s8. Both compute the same sums, so one kernel serves
 * both routes here and neither context is read.
 */
arm_cmsis_nn_status arm_transpose_conv_wrapper_s8(const cmsis_nn_context *ctx,
                                                  const cmsis_nn_context *weight_sum_ctx,
                                                  const cmsis_nn_context *reverse_conv_ctx,
                                                  const cmsis_nn_transpose_conv_params *transpose_conv_params,
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
    return arm_transpose_conv_s8(ctx, reverse_conv_ctx, transpose_conv_params, quant_params, input_dims, input_data,
                                 filter_dims, filter_data, bias_dims, bias_data, output_dims, output_data);
}
