/* SPDX-License-Identifier: Apache-2.0 */
/* Where the compiler has no MVE (e.g. a host build of a module converted for a Helium core, to test
 * it), each Helium entry runs the kernel library's general entry with the same arguments: for every
 * call the Helium kernel accepts, that computes the same bytes (tests/kernels/test_helium_parity.py
 * checks the Helium kernel against the portable arm_depthwise_conv_s8). */

#include "helia_helium.h"

#if !HELIA_HELIUM_AVAILABLE

#include "arm_nnfunctions.h"

arm_cmsis_nn_status helia_mve_depthwise_conv_3x3_s8(const cmsis_nn_context *ctx,
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
    return arm_depthwise_conv_s8(ctx, dw_conv_params, quant_params, input_dims, input_data, filter_dims,
                                 filter_data, bias_dims, bias_data, output_dims, output_data);
}

arm_cmsis_nn_status helia_mve_convolve_1x1_s8(const cmsis_nn_context *ctx,
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
    return arm_convolve_1x1_s8_fast(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data,
                                    filter_dims, filter_data, bias_dims, bias_data, output_dims, output_data);
}

arm_cmsis_nn_status helia_mve_convolve_s8(const cmsis_nn_context *ctx,
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
    return arm_convolve_s8(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                           filter_data, bias_dims, bias_data, NULL, output_dims, output_data);
}

#endif /* !HELIA_HELIUM_AVAILABLE */
