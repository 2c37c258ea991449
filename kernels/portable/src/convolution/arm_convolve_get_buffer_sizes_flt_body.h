/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of the float16 and float32 CONV_2D *_get_buffer_size functions
 * (arm_convolve_get_buffer_sizes_f16.c, arm_convolve_get_buffer_sizes_f32.c), ns-cmsis-nn's plain-C sizes.
 *
 * The file including this one defines `flt_t`, the element type, `flt_conv_params_t`, its
 * cmsis_nn_conv_params_*, and the functions' names: ARM_CONVOLVE_FLT_GET_BUFFER_SIZE,
 * ARM_CONVOLVE_WRAPPER_FLT_GET_BUFFER_SIZE, ARM_CONVOLVE_1X1_FLT_GET_BUFFER_SIZE and
 * ARM_CONVOLVE_1_X_N_FLT_GET_BUFFER_SIZE.
 */

#ifndef HELIA_PORTABLE_ARM_CONVOLVE_GET_BUFFER_SIZES_FLT_BODY_H
#define HELIA_PORTABLE_ARM_CONVOLVE_GET_BUFFER_SIZES_FLT_BODY_H

#include "conv_flt_rules.h"

/* What ns-cmsis-nn's scratch is for: up to 8 packed windows (8 * kh * kw * in_c floats), one packed
 * 1 x N window (kw * in_c) or 8 strided 1x1 input pixels (8 * in_c); 0 for other layouts, NULL
 * arguments or empty shapes. Its Helium build reports the same. The portable kernels need none. */

static int helia_sizes_ok(const flt_conv_params_t *p,
                          const cmsis_nn_dims *in,
                          const cmsis_nn_dims *filter,
                          const cmsis_nn_dims *out,
                          arm_nn_tensor_layout layout)
{
    return p != NULL && in != NULL && filter != NULL && out != NULL && layout == ARM_NN_LAYOUT_NHWC;
}

int32_t ARM_CONVOLVE_FLT_GET_BUFFER_SIZE(const flt_conv_params_t *conv_params,
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
    return helia_conv_flt_scratch(&g, input_dims, filter_dims, output_dims, sizeof(flt_t));
}

int32_t ARM_CONVOLVE_WRAPPER_FLT_GET_BUFFER_SIZE(const flt_conv_params_t *conv_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const cmsis_nn_dims *output_dims)
{
    return ARM_CONVOLVE_FLT_GET_BUFFER_SIZE(conv_params, input_dims, filter_dims, output_dims, ARM_NN_LAYOUT_NHWC);
}

int32_t ARM_CONVOLVE_1X1_FLT_GET_BUFFER_SIZE(const flt_conv_params_t *conv_params,
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
    return helia_conv_flt_1x1_scratch(&g, input_dims, filter_dims, output_dims, sizeof(flt_t));
}

int32_t ARM_CONVOLVE_1_X_N_FLT_GET_BUFFER_SIZE(const flt_conv_params_t *conv_params,
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
    return helia_conv_flt_1xn_scratch(&g, input_dims, filter_dims, output_dims, sizeof(flt_t));
}

#endif /* HELIA_PORTABLE_ARM_CONVOLVE_GET_BUFFER_SIZES_FLT_BODY_H */
