/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_s8, the general DEPTHWISE_CONV_2D kernel. */

#include "arm_nnfunctions.h"
#include "depthwise_core.h"

arm_cmsis_nn_status arm_depthwise_conv_s8(const cmsis_nn_context *ctx,
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
    helia_depthwise_conv_s8_reference(dw_conv_params, quant_params, input_dims->n, input_dims, input_data,
                                      filter_dims, filter_data, bias_data, output_dims, output_data);
    return ARM_CMSIS_NN_SUCCESS;
}
