/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_svdf_f32, SVDF in float32. */

#include "arm_nnfunctions.h"

#if ARM_NN_ENABLE_F32

/* min(x, max) first, then max(., min): a NaN comes out as max, as in ns-cmsis-nn. */
static float32_t clamp_f32(float32_t x, const cmsis_nn_activation_f32 *act)
{
    const float32_t upper = x < act->max ? x : act->max;
    return upper > act->min ? upper : act->min;
}

/* sum_i a[i] * b[i], summed from i = 0 up. */
static float32_t dot_f32(const float32_t *a, const float32_t *b, int32_t count)
{
    float32_t sum = 0.0f;
    for (int32_t i = 0; i < count; ++i)
    {
        sum += a[i] * b[i];
    }
    return sum;
}

/*
 * Per call, for every batch b: each feature's memory row moves one step left, its newest entry becomes
 * clamp(dot(x[b], wf[f]), input_activation); a[b][f] = dot(wt[f], row); then
 * y[b][u] = clamp(bias[u] + a[b][u * rank] + ... + a[b][u * rank + rank - 1], output_activation),
 * summed in that order (rank 1 with a bias: a + bias).
 */
arm_cmsis_nn_status arm_svdf_f32(const cmsis_nn_context *ctx,
                                 const cmsis_nn_context *input_ctx,
                                 const cmsis_nn_context *output_ctx,
                                 const cmsis_nn_svdf_params_f32 *svdf_params,
                                 const cmsis_nn_dims *input_dims,
                                 const float32_t *input_data,
                                 const cmsis_nn_dims *state_dims,
                                 float32_t *state_data,
                                 const cmsis_nn_dims *weights_feature_dims,
                                 const float32_t *weights_feature_data,
                                 const cmsis_nn_dims *weights_time_dims,
                                 const float32_t *weights_time_data,
                                 const cmsis_nn_dims *bias_dims,
                                 const float32_t *bias_data,
                                 const cmsis_nn_dims *output_dims,
                                 float32_t *output_data)
{
    (void)ctx;
    (void)state_dims;
    (void)bias_dims;
    (void)output_dims;
    if (svdf_params == NULL || input_dims == NULL || weights_feature_dims == NULL || weights_time_dims == NULL ||
        input_data == NULL || state_data == NULL || weights_feature_data == NULL || weights_time_data == NULL ||
        output_data == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t rank = svdf_params->rank;
    const int32_t batches = input_dims->n;
    const int32_t input_size = input_dims->h;
    const int32_t features = weights_feature_dims->n;
    const int32_t time = weights_time_dims->h;
    const int32_t units = features / rank;
    float32_t *feature_sums = input_ctx != NULL ? (float32_t *)input_ctx->buf : NULL;
    float32_t *unit_sums = output_ctx != NULL ? (float32_t *)output_ctx->buf : NULL;
    if (feature_sums == NULL || unit_sums == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }

    for (int32_t b = 0; b < batches; ++b)
    {
        const float32_t *x = input_data + (size_t)b * input_size;
        for (int32_t f = 0; f < features; ++f)
        {
            float32_t *row = state_data + ((size_t)b * features + f) * time;
            for (int32_t t = 0; t + 1 < time; ++t)
            {
                row[t] = row[t + 1];
            }
            row[time - 1] = clamp_f32(dot_f32(x, weights_feature_data + (size_t)f * input_size, input_size),
                                      &svdf_params->input_activation);
        }
    }

    for (int32_t b = 0; b < batches; ++b)
    {
        for (int32_t f = 0; f < features; ++f)
        {
            const float32_t *row = state_data + ((size_t)b * features + f) * time;
            feature_sums[(size_t)b * features + f] = dot_f32(weights_time_data + (size_t)f * time, row, time);
        }
    }

    for (int32_t b = 0; b < batches; ++b)
    {
        const float32_t *sums = feature_sums + (size_t)b * features;
        float32_t *out = unit_sums + (size_t)b * units;
        for (int32_t u = 0; u < units; ++u)
        {
            float32_t acc;
            if (bias_data != NULL && rank == 1)
            {
                acc = sums[u] + bias_data[u];
            }
            else
            {
                acc = bias_data != NULL ? bias_data[u] : 0.0f;
                for (int32_t r = 0; r < rank; ++r)
                {
                    acc += sums[u * rank + r];
                }
            }
            out[u] = acc;
        }
    }

    for (int32_t i = 0; i < batches * units; ++i)
    {
        output_data[i] = clamp_f32(unit_sums[i], &svdf_params->output_activation);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */
