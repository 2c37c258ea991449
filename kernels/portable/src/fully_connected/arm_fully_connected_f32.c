/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_fully_connected_f32 / arm_fully_connected_nhwc_f32, float32 FULLY_CONNECTED. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/*
 * output[b][o] = clamp(bias[o] + (input[b] . kernel[o])), the dot product summed in input order from
 * 0 and added to the bias last, as ns-cmsis-nn does; a NaN clamps to the upper bound. The depth
 * (input h * w * c) must equal filter_dims->n. ctx is not read.
 */
arm_cmsis_nn_status arm_fully_connected_nhwc_f32(const cmsis_nn_context *ctx,
                                                 const cmsis_nn_fc_params_f32 *fc_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const float32_t *input,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const float32_t *kernel,
                                                 const cmsis_nn_dims *bias_dims,
                                                 const float32_t *bias,
                                                 const cmsis_nn_dims *output_dims,
                                                 float32_t *output)
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
        const float32_t *x = input + (size_t)b * depth;
        for (int32_t o = 0; o < outputs; ++o)
        {
            const float32_t *w = kernel + (size_t)o * depth;
            float32_t dot = 0.0f;
            for (int32_t k = 0; k < depth; ++k)
            {
                dot += x[k] * w[k];
            }
            float32_t acc = (bias != NULL) ? bias[o] : 0.0f;
            acc += dot;
            output[(size_t)b * outputs + o] = helia_clamp_nan_high_f32(acc, fc_params->activation.min,
                                                                       fc_params->activation.max);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_fully_connected_f32(const cmsis_nn_context *ctx,
                                            const cmsis_nn_fc_params_f32 *fc_params,
                                            const cmsis_nn_dims *input_dims,
                                            const float32_t *input,
                                            const cmsis_nn_dims *filter_dims,
                                            const float32_t *kernel,
                                            const cmsis_nn_dims *bias_dims,
                                            const float32_t *bias,
                                            const cmsis_nn_dims *output_dims,
                                            float32_t *output,
                                            arm_nn_tensor_layout layout)
{
    if (layout != ARM_NN_LAYOUT_NHWC)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return arm_fully_connected_nhwc_f32(ctx, fc_params, input_dims, input, filter_dims, kernel, bias_dims, bias,
                                        output_dims, output);
}

/* The float32 fully connected kernels need no scratch, in ns-cmsis-nn as here. */
int32_t arm_fully_connected_f32_get_buffer_size(const cmsis_nn_fc_params_f32 *fc_params,
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

#endif /* ARM_NN_ENABLE_F32 */
