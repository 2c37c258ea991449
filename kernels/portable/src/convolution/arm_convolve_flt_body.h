/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_convolve_wrapper_f16 / arm_convolve_f16 / arm_convolve_nhwc_f16
 * and their float32 twins (arm_convolve_f16.c, arm_convolve_f32.c), float CONV_2D.
 *
 * The file including this one defines `flt_t`, the element type, `flt_conv_params_t`, its
 * cmsis_nn_conv_params_*, the functions' names ARM_CONVOLVE_NHWC_FLT, ARM_CONVOLVE_FLT and
 * ARM_CONVOLVE_WRAPPER_FLT, and the names it calls: ARM_CONVOLVE_1X1_NHWC_FLT and HELIA_CONV_FLT_RUN
 * (conv_flt_core.h).
 */

#ifndef HELIA_PORTABLE_ARM_CONVOLVE_FLT_BODY_H
#define HELIA_PORTABLE_ARM_CONVOLVE_FLT_BODY_H

#include "conv_flt_core.h"

/*
 * The route (and so the summation order, see conv_flt_core_body.h) is the one ns-cmsis-nn takes when
 * given the scratch arm_convolve_wrapper_*_get_buffer_size asks for: 1x1 filters without padding
 * go to arm_convolve_1x1_nhwc_*; one-row 1xN filters and large windows are summed as one dot
 * product over the window; one-row 1x3 / 1x5 filters at stride 1 tap by tap; the rest window
 * position by window position. ctx is not read.
 */
arm_cmsis_nn_status ARM_CONVOLVE_NHWC_FLT(const cmsis_nn_context *ctx,
                                          const flt_conv_params_t *conv_params,
                                          const cmsis_nn_dims *input_dims,
                                          const flt_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const flt_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const flt_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          flt_t *output_data)
{
    if (conv_params == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL ||
        input_data == NULL || filter_data == NULL || output_data == NULL ||
        conv_params->weight_format != ARM_NN_WEIGHT_FORMAT_STANDARD)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const helia_conv_flt_geometry g = {conv_params->stride, conv_params->padding, conv_params->dilation};
    const helia_conv_flt_route route =
        helia_conv_flt_route_for(&g, input_dims, filter_dims, output_dims, sizeof(flt_t));
    if (route == HELIA_CONV_FLT_1X1)
    {
        return ARM_CONVOLVE_1X1_NHWC_FLT(ctx, conv_params, input_dims, input_data, filter_dims, filter_data,
                                         bias_dims, bias_data, output_dims, output_data);
    }
    HELIA_CONV_FLT_RUN(route, &g, input_dims, input_data, filter_dims, filter_data, bias_data, output_dims,
                       output_data, &conv_params->activation);
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status ARM_CONVOLVE_FLT(const cmsis_nn_context *ctx,
                                     const flt_conv_params_t *conv_params,
                                     const cmsis_nn_dims *input_dims,
                                     const flt_t *input_data,
                                     const cmsis_nn_dims *filter_dims,
                                     const flt_t *filter_data,
                                     const cmsis_nn_dims *bias_dims,
                                     const flt_t *bias_data,
                                     const cmsis_nn_dims *output_dims,
                                     flt_t *output_data,
                                     arm_nn_tensor_layout layout)
{
    if (layout != ARM_NN_LAYOUT_NHWC)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return ARM_CONVOLVE_NHWC_FLT(ctx, conv_params, input_dims, input_data, filter_dims, filter_data, bias_dims,
                                 bias_data, output_dims, output_data);
}

arm_cmsis_nn_status ARM_CONVOLVE_WRAPPER_FLT(const cmsis_nn_context *ctx,
                                             const flt_conv_params_t *conv_params,
                                             const cmsis_nn_dims *input_dims,
                                             const flt_t *input_data,
                                             const cmsis_nn_dims *filter_dims,
                                             const flt_t *filter_data,
                                             const cmsis_nn_dims *bias_dims,
                                             const flt_t *bias_data,
                                             const cmsis_nn_dims *output_dims,
                                             flt_t *output_data)
{
    return ARM_CONVOLVE_FLT(ctx, conv_params, input_dims, input_data, filter_dims, filter_data, bias_dims, bias_data,
                            output_dims, output_data, ARM_NN_LAYOUT_NHWC);
}

#endif /* HELIA_PORTABLE_ARM_CONVOLVE_FLT_BODY_H */
