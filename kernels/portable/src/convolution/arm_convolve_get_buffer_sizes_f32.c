/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the float32 CONV_2D *_get_buffer_size functions (ns-cmsis-nn's plain-C sizes). */

#include "conv_flt_rules.h"

#if ARM_NN_ENABLE_F32

/* What ns-cmsis-nn's scratch is for: up to 8 packed windows (8 * kh * kw * in_c floats), one packed
 * 1 x N window (kw * in_c) or 8 strided 1x1 input pixels (8 * in_c); 0 for other layouts, NULL
 * arguments or empty shapes. Its Helium build reports the same. The portable kernels need none. */

static int helia_sizes_ok(const cmsis_nn_conv_params_f32 *p,
                          const cmsis_nn_dims *in,
                          const cmsis_nn_dims *filter,
                          const cmsis_nn_dims *out,
                          arm_nn_tensor_layout layout)
{
    return p != NULL && in != NULL && filter != NULL && out != NULL && layout == ARM_NN_LAYOUT_NHWC;
}

int32_t arm_convolve_f32_get_buffer_size(const cmsis_nn_conv_params_f32 *conv_params,
                                         const cmsis_nn_dims *input_dims,
                                         const cmsis_nn_dims *filter_dims,
                                         const cmsis_nn_dims *output_dims,
                                         arm_nn_tensor_layout layout)
{
    if (!helia_sizes_ok(conv_params, input_dims, filter_dims, output_dims, layout))
    {
        return 0;
    }
    const helia_conv_flt_geometry g = {conv_params->stride, conv_params->padding, conv_params->dilation};
    return helia_conv_flt_scratch(&g, input_dims, filter_dims, output_dims, sizeof(float32_t));
}

int32_t arm_convolve_wrapper_f32_get_buffer_size(const cmsis_nn_conv_params_f32 *conv_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const cmsis_nn_dims *output_dims)
{
    return arm_convolve_f32_get_buffer_size(conv_params, input_dims, filter_dims, output_dims, ARM_NN_LAYOUT_NHWC);
}

int32_t arm_convolve_1x1_f32_get_buffer_size(const cmsis_nn_conv_params_f32 *conv_params,
                                             const cmsis_nn_dims *input_dims,
                                             const cmsis_nn_dims *filter_dims,
                                             const cmsis_nn_dims *output_dims,
                                             arm_nn_tensor_layout layout)
{
    if (!helia_sizes_ok(conv_params, input_dims, filter_dims, output_dims, layout))
    {
        return 0;
    }
    const helia_conv_flt_geometry g = {conv_params->stride, conv_params->padding, conv_params->dilation};
    return helia_conv_flt_1x1_scratch(&g, input_dims, filter_dims, output_dims, sizeof(float32_t));
}

int32_t arm_convolve_1_x_n_f32_get_buffer_size(const cmsis_nn_conv_params_f32 *conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *output_dims,
                                               arm_nn_tensor_layout layout)
{
    if (!helia_sizes_ok(conv_params, input_dims, filter_dims, output_dims, layout))
    {
        return 0;
    }
    const helia_conv_flt_geometry g = {conv_params->stride, conv_params->padding, conv_params->dilation};
    return helia_conv_flt_1xn_scratch(&g, input_dims, filter_dims, output_dims, sizeof(float32_t));
}

#endif /* ARM_NN_ENABLE_F32 */
