/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: int16-activation FULLY_CONNECTED, per-tensor or per-channel requantization. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/*
 * out[b, o] = clamp(requantize_s64(bias[o] + sum_k in[b, k] * filter[o, k], multiplier[o], shift[o]))
 * with k < filter_dims->n (the accumulation depth), an exact 64-bit sum and the multiplier rounded
 * to Q15. There are no offsets: fc_params' offsets are not read. For per-tensor requantization the
 * multiplier and shift arrays have a single entry (channel_step 0).
 */
static void fully_connected_s16(const cmsis_nn_fc_params *fc_params,
                                const int32_t *multipliers,
                                const int32_t *shifts,
                                int32_t channel_step,
                                const cmsis_nn_dims *input_dims,
                                const int16_t *input_data,
                                const cmsis_nn_dims *filter_dims,
                                const int8_t *filter_data,
                                const int64_t *bias_data,
                                const cmsis_nn_dims *output_dims,
                                int16_t *output_data)
{
    const int32_t depth = filter_dims->n;
    const int32_t outputs = output_dims->c;
    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int16_t *in = input_data + (size_t)b * depth;
        int16_t *out = output_data + (size_t)b * outputs;
        for (int32_t o = 0; o < outputs; ++o)
        {
            const int8_t *weights = filter_data + (size_t)o * depth;
            int64_t acc = bias_data != NULL ? bias_data[o] : 0;
            for (int32_t k = 0; k < depth; ++k)
            {
                acc += (int64_t)in[k] * weights[k];
            }
            const int32_t channel = o * channel_step;
            const int32_t scaled =
                helia_requantize_s64(acc, helia_reduce_multiplier(multipliers[channel]), shifts[channel]);
            out[o] = (int16_t)helia_clamp(scaled, fc_params->activation.min, fc_params->activation.max);
        }
    }
}

arm_cmsis_nn_status arm_fully_connected_s16(const cmsis_nn_context *ctx,
                                            const cmsis_nn_fc_params *fc_params,
                                            const cmsis_nn_per_tensor_quant_params *quant_params,
                                            const cmsis_nn_dims *input_dims,
                                            const int16_t *input_data,
                                            const cmsis_nn_dims *filter_dims,
                                            const int8_t *filter_data,
                                            const cmsis_nn_dims *bias_dims,
                                            const int64_t *bias_data,
                                            const cmsis_nn_dims *output_dims,
                                            int16_t *output_data)
{
    (void)ctx;
    (void)bias_dims;
    fully_connected_s16(fc_params, &quant_params->multiplier, &quant_params->shift, 0, input_dims, input_data,
                        filter_dims, filter_data, bias_data, output_dims, output_data);
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_fully_connected_per_channel_s16(const cmsis_nn_context *ctx,
                                                        const cmsis_nn_fc_params *fc_params,
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
    (void)ctx; /* ns-cmsis-nn keeps the reduced multipliers there; they are computed per output here */
    (void)bias_dims;
    fully_connected_s16(fc_params, quant_params->multiplier, quant_params->shift, 1, input_dims, input_data,
                        filter_dims, filter_data, bias_data, output_dims, output_data);
    return ARM_CMSIS_NN_SUCCESS;
}
