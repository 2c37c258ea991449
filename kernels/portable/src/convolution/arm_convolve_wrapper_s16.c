/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_wrapper_s16, picks the int16 CONV_2D entry point for the shapes. */

#include "arm_nnfunctions.h"

arm_cmsis_nn_status arm_convolve_wrapper_s16(const cmsis_nn_context *ctx,
                                             const cmsis_nn_conv_params *conv_params,
                                             const cmsis_nn_per_channel_quant_params *quant_params,
                                             const cmsis_nn_dims *input_dims,
                                             const int16_t *input_data,
                                             const cmsis_nn_dims *filter_dims,
                                             const int8_t *filter_data,
                                             const cmsis_nn_dims *bias_dims,
                                             const cmsis_nn_bias_data *bias_data,
                                             const cmsis_nn_dims *output_dims,
                                             int16_t *output_data)
{
    /* Same dispatch as ns-cmsis-nn's plain-C build: the two entries differ in accumulator width
     * and in how a NULL bias picks the requantization, so the choice is visible in the results. */
    if (filter_dims->c == 1 && input_dims->c == output_dims->c)
    {
        return arm_convolve_s16_group_ch_mult_1(ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                                                filter_data, bias_dims, bias_data, output_dims, output_data);
    }
    return arm_convolve_s16(ctx, conv_params, quant_params, input_dims, input_data, filter_dims, filter_data,
                            bias_dims, bias_data, output_dims, output_data);
}
