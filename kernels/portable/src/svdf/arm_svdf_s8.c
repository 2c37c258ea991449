/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_svdf_s8, SVDF with an int8 state and int8 time weights (TFLM). */

#include <string.h>

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"
#include "svdf_common.h"

/*
 * The computation of arm_svdf_state_s16_s8 (see there) on int8 state and time weights. ctx->buf (the
 * kernel sums a Helium build folds the input offset in with) is not read: the offset is applied to
 * each input value, which gives the same sums.
 */
arm_cmsis_nn_status arm_svdf_s8(const cmsis_nn_context *ctx,
                                const cmsis_nn_context *input_ctx,
                                const cmsis_nn_context *output_ctx,
                                const cmsis_nn_svdf_params *svdf_params,
                                const cmsis_nn_per_tensor_quant_params *input_quant_params,
                                const cmsis_nn_per_tensor_quant_params *output_quant_params,
                                const cmsis_nn_dims *input_dims,
                                const int8_t *input_data,
                                const cmsis_nn_dims *state_dims,
                                int8_t *state_data,
                                const cmsis_nn_dims *weights_feature_dims,
                                const int8_t *weights_feature_data,
                                const cmsis_nn_dims *weights_time_dims,
                                const int8_t *weights_time_data,
                                const cmsis_nn_dims *bias_dims,
                                const int32_t *bias_data,
                                const cmsis_nn_dims *output_dims,
                                int8_t *output_data)
{
    (void)ctx;
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

    memmove(state_data, state_data + 1, (size_t)(batches * features * time - 1));

    for (int32_t b = 0; b < batches; ++b)
    {
        const int8_t *x = input_data + (size_t)b * input_size;
        int8_t *newest = state_data + (size_t)b * features * time + (time - 1);
        for (int32_t f = 0; f < features; ++f)
        {
            const int8_t *w = weights_feature_data + (size_t)f * input_size;
            int32_t acc = 0;
            for (int32_t k = 0; k < input_size; ++k)
            {
                acc = helia_add_wrapping(acc, (x[k] - svdf_params->input_offset) * w[k]);
            }
            acc = helia_requantize(acc, input_quant_params->multiplier, input_quant_params->shift);
            newest[(size_t)f * time] = (int8_t)helia_clamp(
                acc, svdf_params->input_activation.min, svdf_params->input_activation.max);
        }
    }

    for (int32_t b = 0; b < batches; ++b)
    {
        const int8_t *rows = state_data + (size_t)b * features * time;
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
