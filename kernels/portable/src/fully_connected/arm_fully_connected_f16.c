/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_fully_connected_f16 / arm_fully_connected_nhwc_f16, float16 FULLY_CONNECTED. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/*
 * As arm_fully_connected_nhwc_f32, every partial sum rounded to float16: dot = dot + x*w per step,
 * then bias + dot, then the clamp (a NaN to the upper bound). ctx is not read.
 */
arm_cmsis_nn_status arm_fully_connected_nhwc_f16(const cmsis_nn_context *ctx,
                                                 const cmsis_nn_fc_params_f16 *fc_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const float16_t *input,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const float16_t *kernel,
                                                 const cmsis_nn_dims *bias_dims,
                                                 const float16_t *bias,
                                                 const cmsis_nn_dims *output_dims,
                                                 float16_t *output)
{
    (void)ctx;
    (void)bias_dims;
    if (fc_params == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t batches = input_dims->n;
    const int32_t depth = filter_dims->n;
    const int32_t outputs = output_dims->c;
    if (depth != input_dims->h * input_dims->w * input_dims->c ||
        fc_params->weight_format != ARM_NN_WEIGHT_FORMAT_STANDARD || input == NULL || kernel == NULL ||
        output == NULL || batches <= 0 || depth <= 0 || outputs <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t b = 0; b < batches; ++b)
    {
        const float16_t *x = input + (size_t)b * depth;
        for (int32_t o = 0; o < outputs; ++o)
        {
            const float16_t *w = kernel + (size_t)o * depth;
            _Float16 dot = (_Float16)0.0f;
            for (int32_t k = 0; k < depth; ++k)
            {
                dot += (_Float16)x[k] * (_Float16)w[k];
            }
            _Float16 acc = (bias != NULL) ? (_Float16)bias[o] : (_Float16)0.0f;
            acc += dot;
            output[(size_t)b * outputs + o] = (float16_t)helia_clamp_nan_high_f16(
                acc, (_Float16)fc_params->activation.min, (_Float16)fc_params->activation.max);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_fully_connected_f16(const cmsis_nn_context *ctx,
                                            const cmsis_nn_fc_params_f16 *fc_params,
                                            const cmsis_nn_dims *input_dims,
                                            const float16_t *input,
                                            const cmsis_nn_dims *filter_dims,
                                            const float16_t *kernel,
                                            const cmsis_nn_dims *bias_dims,
                                            const float16_t *bias,
                                            const cmsis_nn_dims *output_dims,
                                            float16_t *output,
                                            arm_nn_tensor_layout layout)
{
    if (layout != ARM_NN_LAYOUT_NHWC)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return arm_fully_connected_nhwc_f16(ctx, fc_params, input_dims, input, filter_dims, kernel, bias_dims, bias,
                                        output_dims, output);
}

/* The float16 fully connected kernels need no scratch, in ns-cmsis-nn as here. */
int32_t arm_fully_connected_f16_get_buffer_size(const cmsis_nn_fc_params_f16 *fc_params,
                                                const cmsis_nn_dims *input_dims,
                                                const cmsis_nn_dims *filter_dims,
                                                const cmsis_nn_dims *output_dims,
                                                arm_nn_tensor_layout layout)
{
    (void)fc_params;
    (void)input_dims;
    (void)filter_dims;
    (void)output_dims;
    (void)layout;
    return 0;
}

#endif /* ARM_NN_ENABLE_F16 */
