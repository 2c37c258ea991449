/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_svdf_state_s16_s8, SVDF with an int16 state (LiteRT's integer SVDF). */

#include <string.h>

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"
#include "svdf_common.h"

/*
 * Per call, for every batch b (state row s[b][f][t], t < T oldest first):
 *   s[b][f][t] = s[b][f][t + 1]                                (the whole state moves one step left)
 *   s[b][f][T-1] = clamp(requantize(sum_k (x[b][k] - input_offset) * wf[f][k], in_quant), input_activation)
 *   a[b][f] = sum_t wt[f][t] * s[b][f][t]                      (int32, wrapping)
 *   y[b][u] = clamp(requantize(bias[u] + sum_r a[b][u * rank + r], out_quant) + output_offset, output_activation)
 */
arm_cmsis_nn_status arm_svdf_state_s16_s8(const cmsis_nn_context *input_ctx,
                                          const cmsis_nn_context *output_ctx,
                                          const cmsis_nn_svdf_params *svdf_params,
                                          const cmsis_nn_per_tensor_quant_params *input_quant_params,
                                          const cmsis_nn_per_tensor_quant_params *output_quant_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *state_dims,
                                          int16_t *state_data,
                                          const cmsis_nn_dims *weights_feature_dims,
                                          const int8_t *weights_feature_data,
                                          const cmsis_nn_dims *weights_time_dims,
                                          const int16_t *weights_time_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const int32_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          int8_t *output_data)
{
    (void)state_dims;
    (void)bias_dims;
    (void)output_dims;
    const int32_t batches = input_dims->n;
    const int32_t input_size = input_dims->h;
    const int32_t features = weights_feature_dims->n;
    const int32_t time = weights_time_dims->h;
    if (input_ctx->buf == NULL || output_ctx->buf == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int32_t *feature_sums = (int32_t *)input_ctx->buf;
    int32_t *unit_sums = (int32_t *)output_ctx->buf;

    memmove(state_data, state_data + 1, (size_t)(batches * features * time - 1) * sizeof(int16_t));

    for (int32_t b = 0; b < batches; ++b)
    {
        if (!helia_svdf_projection_args_ok(input_size, time))
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        const int8_t *x = input_data + (size_t)b * input_size;
        int16_t *newest = state_data + (size_t)b * features * time + (time - 1);
        for (int32_t f = 0; f < features; ++f)
        {
            const int8_t *w = weights_feature_data + (size_t)f * input_size;
            int32_t acc = 0;
            for (int32_t k = 0; k < input_size; ++k)
            {
                acc = helia_add_wrapping(acc, (x[k] - svdf_params->input_offset) * w[k]);
            }
            acc = helia_requantize(acc, input_quant_params->multiplier, input_quant_params->shift);
            newest[(size_t)f * time] = (int16_t)helia_clamp(
                acc, svdf_params->input_activation.min, svdf_params->input_activation.max);
        }
    }

    for (int32_t b = 0; b < batches; ++b)
    {
        const int16_t *rows = state_data + (size_t)b * features * time;
        for (int32_t f = 0; f < features; ++f)
        {
            int32_t acc = 0;
            for (int32_t t = 0; t < time; ++t)
            {
                acc = helia_add_wrapping(acc, weights_time_data[(size_t)f * time + t] * rows[(size_t)f * time + t]);
            }
            feature_sums[(size_t)b * features + f] = acc;
        }
    }

    helia_svdf_reduce_s32(feature_sums, bias_data, batches, features, svdf_params->rank, unit_sums);
    helia_svdf_output_s8(unit_sums, batches * (features / svdf_params->rank), svdf_params, output_quant_params,
                         output_data);
    return ARM_CMSIS_NN_SUCCESS;
}
