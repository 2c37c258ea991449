/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of the float16 and float32 DEPTHWISE_CONV_2D *_get_buffer_size
 * functions (arm_depthwise_conv_get_buffer_sizes_f16.c, _f32.c), ns-cmsis-nn's plain-C sizes.
 *
 * The file including this one defines `flt_t`, the element type, `flt_dw_conv_params_t`, its
 * cmsis_nn_dw_conv_params_*, and the functions' names: ARM_DEPTHWISE_CONV_FLT_GET_BUFFER_SIZE and
 * ARM_DEPTHWISE_CONV_WRAPPER_FLT_GET_BUFFER_SIZE.
 */

#ifndef HELIA_PORTABLE_ARM_DEPTHWISE_CONV_GET_BUFFER_SIZES_FLT_BODY_H
#define HELIA_PORTABLE_ARM_DEPTHWISE_CONV_GET_BUFFER_SIZES_FLT_BODY_H

#include "depthwise_flt_rules.h"

/* 4 * kh * kw * channels elements when ch_mult and dilation are 1 (NHWC), else 0. ns-cmsis-nn's
 * Helium build asks for more when there is one input channel (see README); the portable kernels
 * need none. */
int32_t ARM_DEPTHWISE_CONV_FLT_GET_BUFFER_SIZE(const flt_dw_conv_params_t *dw_conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *output_dims,
                                               arm_nn_tensor_layout layout)
{
    if (dw_conv_params == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL ||
        layout != ARM_NN_LAYOUT_NHWC)
    {
        return 0;
    }
    const helia_dw_flt_geometry g = {dw_conv_params->ch_mult, dw_conv_params->stride, dw_conv_params->padding,
                                     dw_conv_params->dilation};
    return helia_dw_flt_scratch(&g, input_dims, filter_dims, sizeof(flt_t));
}

int32_t ARM_DEPTHWISE_CONV_WRAPPER_FLT_GET_BUFFER_SIZE(const flt_dw_conv_params_t *dw_conv_params,
                                                       const cmsis_nn_dims *input_dims,
                                                       const cmsis_nn_dims *filter_dims,
                                                       const cmsis_nn_dims *output_dims)
{
    return ARM_DEPTHWISE_CONV_FLT_GET_BUFFER_SIZE(dw_conv_params, input_dims, filter_dims, output_dims,
                                                  ARM_NN_LAYOUT_NHWC);
}

#endif /* HELIA_PORTABLE_ARM_DEPTHWISE_CONV_GET_BUFFER_SIZES_FLT_BODY_H */
