/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_1x1_f32 / arm_convolve_1x1_nhwc_f32, float32 CONV_2D with a 1x1 filter. */

#include "conv_f32_core.h"

#if ARM_NN_ENABLE_F32

/* Output pixel (y, x) = bias + input pixel (y * stride.h, x * stride.w) . filter row; no padding allowed. */
arm_cmsis_nn_status arm_convolve_1x1_nhwc_f32(const cmsis_nn_context *ctx,
                                              const cmsis_nn_conv_params_f32 *conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const float32_t *input_data,
                                              const cmsis_nn_dims *filter_dims,
                                              const float32_t *filter_data,
                                              const cmsis_nn_dims *bias_dims,
                                              const float32_t *bias_data,
                                              const cmsis_nn_dims *output_dims,
                                              float32_t *output_data)
{
    (void)ctx;
    (void)bias_dims;
    if (conv_params == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL ||
        input_data == NULL || filter_data == NULL || output_data == NULL ||
        conv_params->weight_format != ARM_NN_WEIGHT_FORMAT_STANDARD)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const helia_conv_flt_geometry g = {conv_params->stride, conv_params->padding, conv_params->dilation};
    if (!helia_conv_flt_is_1x1(&g, filter_dims) || input_dims->c <= 0 || output_dims->c <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    helia_conv_f32_run(HELIA_CONV_FLT_1X1, &g, input_dims, input_data, filter_dims, filter_data, bias_data,
                       output_dims, output_data, &conv_params->activation);
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_convolve_1x1_f32(const cmsis_nn_context *ctx,
                                         const cmsis_nn_conv_params_f32 *conv_params,
                                         const cmsis_nn_dims *input_dims,
                                         const float32_t *input_data,
                                         const cmsis_nn_dims *filter_dims,
                                         const float32_t *filter_data,
                                         const cmsis_nn_dims *bias_dims,
                                         const float32_t *bias_data,
                                         const cmsis_nn_dims *output_dims,
                                         float32_t *output_data,
                                         arm_nn_tensor_layout layout)
{
    if (layout != ARM_NN_LAYOUT_NHWC)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return arm_convolve_1x1_nhwc_f32(ctx, conv_params, input_dims, input_data, filter_dims, filter_data, bias_dims,
                                     bias_data, output_dims, output_data);
}

#endif /* ARM_NN_ENABLE_F32 */
