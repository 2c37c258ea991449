/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the entry points arm_depthwise_conv_f16 / arm_depthwise_conv_wrapper_f16
 * and their float32 twins (arm_depthwise_conv_f16.c, arm_depthwise_conv_f32.c), which check the layout
 * and call the file's own arm_depthwise_nhwc_conv_*.
 *
 * The file including this one defines `flt_t`, the element type, `flt_dw_conv_params_t`, its
 * cmsis_nn_dw_conv_params_*, the functions' names ARM_DEPTHWISE_CONV_FLT and
 * ARM_DEPTHWISE_CONV_WRAPPER_FLT, and ARM_DEPTHWISE_NHWC_CONV_FLT, the NHWC kernel they call.
 */

#ifndef HELIA_PORTABLE_ARM_DEPTHWISE_CONV_FLT_BODY_H
#define HELIA_PORTABLE_ARM_DEPTHWISE_CONV_FLT_BODY_H

arm_cmsis_nn_status ARM_DEPTHWISE_CONV_FLT(const cmsis_nn_context *ctx,
                                           const flt_dw_conv_params_t *dw_conv_params,
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
    if (dw_conv_params == NULL || layout != ARM_NN_LAYOUT_NHWC)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return ARM_DEPTHWISE_NHWC_CONV_FLT(ctx, dw_conv_params, input_dims, input, filter_dims, kernel, bias_dims, bias,
                                       output_dims, output);
}

arm_cmsis_nn_status ARM_DEPTHWISE_CONV_WRAPPER_FLT(const cmsis_nn_context *ctx,
                                                   const flt_dw_conv_params_t *dw_conv_params,
                                                   const cmsis_nn_dims *input_dims,
                                                   const flt_t *input,
                                                   const cmsis_nn_dims *filter_dims,
                                                   const flt_t *kernel,
                                                   const cmsis_nn_dims *bias_dims,
                                                   const flt_t *bias,
                                                   const cmsis_nn_dims *output_dims,
                                                   flt_t *output)
{
    return ARM_DEPTHWISE_NHWC_CONV_FLT(ctx, dw_conv_params, input_dims, input, filter_dims, kernel, bias_dims, bias,
                                       output_dims, output);
}

#endif /* HELIA_PORTABLE_ARM_DEPTHWISE_CONV_FLT_BODY_H */
