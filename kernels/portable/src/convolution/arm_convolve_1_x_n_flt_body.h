/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_convolve_1_x_n_f16 / arm_convolve_1_x_n_nhwc_f16 and their
 * float32 twins (arm_convolve_1_x_n_f16.c, arm_convolve_1_x_n_f32.c), float CONV_2D of one row.
 *
 * The file including this one defines `flt_t`, the element type, `flt_conv_params_t`, its
 * cmsis_nn_conv_params_*, the functions' names ARM_CONVOLVE_1_X_N_NHWC_FLT and ARM_CONVOLVE_1_X_N_FLT,
 * and HELIA_CONV_FLT_RUN (conv_flt_core.h), the arithmetic it calls.
 */

#ifndef HELIA_PORTABLE_ARM_CONVOLVE_1_X_N_FLT_BODY_H
#define HELIA_PORTABLE_ARM_CONVOLVE_1_X_N_FLT_BODY_H

#include "conv_flt_core.h"

/*
 * One-row input and output, 1 x N filter (N > 1) over all input channels, stride.h 1, no vertical
 * padding, dilation 1; horizontal padding and stride are free. Each output is bias + one dot product
 * over the window (padding read as 0). ns-cmsis-nn also rejects a missing or small scratch buffer;
 * these kernels need none.
 */
arm_cmsis_nn_status ARM_CONVOLVE_1_X_N_NHWC_FLT(const cmsis_nn_context *ctx,
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
    (void)ctx;
    (void)bias_dims;
    if (conv_params == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL ||
        input_data == NULL || filter_data == NULL || output_data == NULL ||
        conv_params->weight_format != ARM_NN_WEIGHT_FORMAT_STANDARD)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const helia_conv_flt_geometry g = {conv_params->stride, conv_params->padding, conv_params->dilation};
    if (helia_conv_flt_1xn_scratch(&g, input_dims, filter_dims, output_dims, sizeof(flt_t)) <= 0 ||
        output_dims->c <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR; /* not a 1 x N shape, or channels that do not match */
    }
    HELIA_CONV_FLT_RUN(HELIA_CONV_FLT_PATCH, &g, input_dims, input_data, filter_dims, filter_data, bias_data,
                       output_dims, output_data, &conv_params->activation);
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status ARM_CONVOLVE_1_X_N_FLT(const cmsis_nn_context *ctx,
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
    return ARM_CONVOLVE_1_X_N_NHWC_FLT(ctx, conv_params, input_dims, input_data, filter_dims, filter_data, bias_dims,
                                       bias_data, output_dims, output_data);
}

#endif /* HELIA_PORTABLE_ARM_CONVOLVE_1_X_N_FLT_BODY_H */
