/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_fully_connected_f16 / arm_fully_connected_nhwc_f16 and their
 * float32 twins (arm_fully_connected_f16.c, arm_fully_connected_f32.c), float FULLY_CONNECTED.
 *
 * The file including this one defines `flt_t`, the element type, `flt_sum_t`, what every partial sum
 * is rounded to, `flt_fc_params_t`, its cmsis_nn_fc_params_*, flt_clamp_nan_high(x, lo, hi),
 * ns-cmsis-nn's CLAMP of a flt_sum_t, and the functions' names ARM_FULLY_CONNECTED_NHWC_FLT,
 * ARM_FULLY_CONNECTED_FLT and ARM_FULLY_CONNECTED_FLT_GET_BUFFER_SIZE.
 */

#ifndef HELIA_PORTABLE_ARM_FULLY_CONNECTED_FLT_BODY_H
#define HELIA_PORTABLE_ARM_FULLY_CONNECTED_FLT_BODY_H

/*
 * output[b][o] = clamp(bias[o] + (input[b] . kernel[o])), the dot product summed in input order from
 * 0 and added to the bias last, as ns-cmsis-nn does; a NaN clamps to the upper bound. The depth
 * (input h * w * c) must equal filter_dims->n. ctx is not read.
 */
arm_cmsis_nn_status ARM_FULLY_CONNECTED_NHWC_FLT(const cmsis_nn_context *ctx,
                                                 const flt_fc_params_t *fc_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const flt_t *input,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const flt_t *kernel,
                                                 const cmsis_nn_dims *bias_dims,
                                                 const flt_t *bias,
                                                 const cmsis_nn_dims *output_dims,
                                                 flt_t *output)
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
        const flt_t *x = input + (size_t)b * depth;
        for (int32_t o = 0; o < outputs; ++o)
        {
            const flt_t *w = kernel + (size_t)o * depth;
            flt_sum_t dot = (flt_sum_t)0.0f;
            for (int32_t k = 0; k < depth; ++k)
            {
                dot += (flt_sum_t)x[k] * (flt_sum_t)w[k];
            }
            flt_sum_t acc = (bias != NULL) ? (flt_sum_t)bias[o] : (flt_sum_t)0.0f;
            acc += dot;
            output[(size_t)b * outputs + o] = (flt_t)flt_clamp_nan_high(
                acc, (flt_sum_t)fc_params->activation.min, (flt_sum_t)fc_params->activation.max);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status ARM_FULLY_CONNECTED_FLT(const cmsis_nn_context *ctx,
                                            const flt_fc_params_t *fc_params,
                                            const cmsis_nn_dims *input_dims,
                                            const flt_t *input,
                                            const cmsis_nn_dims *filter_dims,
                                            const flt_t *kernel,
                                            const cmsis_nn_dims *bias_dims,
                                            const flt_t *bias,
                                            const cmsis_nn_dims *output_dims,
                                            flt_t *output,
                                            arm_nn_tensor_layout layout)
{
    if (layout != ARM_NN_LAYOUT_NHWC)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return ARM_FULLY_CONNECTED_NHWC_FLT(ctx, fc_params, input_dims, input, filter_dims, kernel, bias_dims, bias,
                                        output_dims, output);
}

/* The float fully connected kernels need no scratch, in ns-cmsis-nn as here. */
int32_t ARM_FULLY_CONNECTED_FLT_GET_BUFFER_SIZE(const flt_fc_params_t *fc_params,
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

#endif /* HELIA_PORTABLE_ARM_FULLY_CONNECTED_FLT_BODY_H */
