/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_fast_s16, int16 DEPTHWISE_CONV_2D with channel multiplier 1. */

#include "arm_nnfunctions.h"

/* Kernel taps the DSP/Helium fast kernels can sum in 32 bits (ns-cmsis-nn's MAX_COL_COUNT). */
enum
{
    FAST_MAX_KERNEL_TAPS = 512
};

arm_cmsis_nn_status arm_depthwise_conv_fast_s16(const cmsis_nn_context *ctx,
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
    if (input_dims->c != output_dims->c || filter_dims->w * filter_dims->h >= FAST_MAX_KERNEL_TAPS)
    {
        return ARM_CMSIS_NN_ARG_ERROR; /* the same checks as every ns-cmsis-nn build */
    }
    /* ns-cmsis-nn's plain-C build runs the general kernel here too. */
    return arm_depthwise_conv_s16(ctx, dw_conv_params, quant_params, input_dims, input_data, filter_dims, filter_data,
                                  bias_dims, bias_data, output_dims, output_data);
}
