/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the float32 DEPTHWISE_CONV_2D *_get_buffer_size functions (ns-cmsis-nn's plain-C sizes). */

#include "depthwise_flt_rules.h"

#if ARM_NN_ENABLE_F32

/* 4 * kh * kw * channels elements when ch_mult and dilation are 1 (NHWC), else 0. ns-cmsis-nn's
 * Helium build asks for more when there is one input channel (see README); the portable kernels
 * need none. */
int32_t arm_depthwise_conv_f32_get_buffer_size(const cmsis_nn_dw_conv_params_f32 *dw_conv_params,
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
    return helia_dw_flt_scratch(&g, input_dims, filter_dims, sizeof(float32_t));
}

int32_t arm_depthwise_conv_wrapper_f32_get_buffer_size(const cmsis_nn_dw_conv_params_f32 *dw_conv_params,
                                                       const cmsis_nn_dims *input_dims,
                                                       const cmsis_nn_dims *filter_dims,
                                                       const cmsis_nn_dims *output_dims)
{
    return arm_depthwise_conv_f32_get_buffer_size(dw_conv_params, input_dims, filter_dims, output_dims,
                                                  ARM_NN_LAYOUT_NHWC);
}

#endif /* ARM_NN_ENABLE_F32 */
