/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_wrapper_f16 / arm_convolve_f16 / arm_convolve_nhwc_f16, float16 CONV_2D. */

#include "conv_f16_core.h"

#if ARM_NN_ENABLE_F16

/*
 * The route (and so the summation order, see conv_f16_core.c) is the one ns-cmsis-nn takes when
 * given the scratch arm_convolve_wrapper_f16_get_buffer_size asks for: 1x1 filters without padding
 * go to arm_convolve_1x1_nhwc_f16; one-row 1xN filters and large windows are summed as one dot
 * product over the window; one-row 1x3 / 1x5 filters at stride 1 tap by tap; the rest window
 * position by window position. ctx is not read.
 */
arm_cmsis_nn_status arm_convolve_nhwc_f16(const cmsis_nn_context *ctx,
                                          const cmsis_nn_conv_params_f16 *conv_params,
                                          const cmsis_nn_dims *input_dims,
                                          const float16_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const float16_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const float16_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          float16_t *output_data)
{
    if (conv_params == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL ||
        input_data == NULL || filter_data == NULL || output_data == NULL ||
        conv_params->weight_format != ARM_NN_WEIGHT_FORMAT_STANDARD)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const helia_conv_flt_geometry g = {conv_params->stride, conv_params->padding, conv_params->dilation};
    const helia_conv_flt_route route =
        helia_conv_flt_route_for(&g, input_dims, filter_dims, output_dims, sizeof(float16_t));
    if (route == HELIA_CONV_FLT_1X1)
    {
        return arm_convolve_1x1_nhwc_f16(ctx, conv_params, input_dims, input_data, filter_dims, filter_data,
                                         bias_dims, bias_data, output_dims, output_data);
    }
    helia_conv_f16_run(route, &g, input_dims, input_data, filter_dims, filter_data, bias_data, output_dims,
                       output_data, &conv_params->activation);
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_convolve_f16(const cmsis_nn_context *ctx,
                                     const cmsis_nn_conv_params_f16 *conv_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float16_t *input_data,
                                     const cmsis_nn_dims *filter_dims,
                                     const float16_t *filter_data,
                                     const cmsis_nn_dims *bias_dims,
                                     const float16_t *bias_data,
                                     const cmsis_nn_dims *output_dims,
                                     float16_t *output_data,
                                     arm_nn_tensor_layout layout)
{
    if (layout != ARM_NN_LAYOUT_NHWC)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return arm_convolve_nhwc_f16(ctx, conv_params, input_dims, input_data, filter_dims, filter_data, bias_dims,
                                 bias_data, output_dims, output_data);
}

arm_cmsis_nn_status arm_convolve_wrapper_f16(const cmsis_nn_context *ctx,
                                             const cmsis_nn_conv_params_f16 *conv_params,
                                             const cmsis_nn_dims *input_dims,
                                             const float16_t *input_data,
                                             const cmsis_nn_dims *filter_dims,
                                             const float16_t *filter_data,
                                             const cmsis_nn_dims *bias_dims,
                                             const float16_t *bias_data,
                                             const cmsis_nn_dims *output_dims,
                                             float16_t *output_data)
{
    return arm_convolve_f16(ctx, conv_params, input_dims, input_data, filter_dims, filter_data, bias_dims, bias_data,
                            output_dims, output_data, ARM_NN_LAYOUT_NHWC);
}

#endif /* ARM_NN_ENABLE_F16 */
