/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_transpose_conv_wrapper_f16 / _f16 / _nhwc_f16 and their
 * float32 twins (arm_transpose_conv_f16.c, arm_transpose_conv_f32.c), float TRANSPOSE_CONV.
 *
 * The file including this one defines `flt_t`, the element type, `flt_arith_t`, the type the
 * products and sums are written in, `flt_transpose_conv_params_t`, its cmsis_nn_transpose_conv_params_*,
 * flt_clamp_output(x, lo, hi), the final clamp of a flt_arith_t, and the functions' names
 * ARM_TRANSPOSE_CONV_NHWC_FLT, ARM_TRANSPOSE_CONV_FLT, ARM_TRANSPOSE_CONV_WRAPPER_FLT,
 * ARM_TRANSPOSE_CONV_FLT_GET_BUFFER_SIZE and ARM_TRANSPOSE_CONV_FLT_GET_REVERSE_CONV_BUFFER_SIZE.
 */

#ifndef HELIA_PORTABLE_ARM_TRANSPOSE_CONV_FLT_BODY_H
#define HELIA_PORTABLE_ARM_TRANSPOSE_CONV_FLT_BODY_H

/*
 * Scatter form, in ns-cmsis-nn's order: every output starts at its bias (or 0); then, input pixel
 * by input pixel (rows, then columns) and channel by channel, a non-zero input value v adds
 * v * filter[oc][ky][kx][ic] to output pixel (y * stride - padding + ky * dilation, x * ...) for each
 * (ky, kx) landing inside the output, all output channels; finally every output is clamped
 * (flt_clamp_output). Zero inputs are skipped, as there. padding_offsets and the contexts are not
 * read.
 */
arm_cmsis_nn_status ARM_TRANSPOSE_CONV_NHWC_FLT(const cmsis_nn_context *ctx,
                                                const cmsis_nn_context *output_ctx,
                                                const flt_transpose_conv_params_t *transpose_conv_params,
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
    (void)output_ctx;
    (void)bias_dims;
    const flt_transpose_conv_params_t *p = transpose_conv_params;
    if (p == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL || input_data == NULL ||
        filter_data == NULL || output_data == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_h = input_dims->h;
    const int32_t in_w = input_dims->w;
    const int32_t in_c = input_dims->c;
    const int32_t out_h = output_dims->h;
    const int32_t out_w = output_dims->w;
    const int32_t out_c = output_dims->c;
    const size_t filter_stride = (size_t)filter_dims->h * filter_dims->w * in_c; /* one output channel */

    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const flt_t *input_b = input_data + (size_t)n * in_h * in_w * in_c;
        flt_t *output_b = output_data + (size_t)n * out_h * out_w * out_c;
        for (size_t i = 0; i < (size_t)out_h * out_w; ++i)
        {
            for (int32_t oc = 0; oc < out_c; ++oc)
            {
                output_b[i * out_c + oc] = (bias_data != NULL) ? bias_data[oc] : (flt_t)0.0f;
            }
        }
        for (int32_t y = 0; y < in_h; ++y)
        {
            for (int32_t x = 0; x < in_w; ++x)
            {
                for (int32_t ic = 0; ic < in_c; ++ic)
                {
                    const flt_t v = input_b[((size_t)y * in_w + x) * in_c + ic];
                    if ((flt_arith_t)v == (flt_arith_t)0.0f)
                    {
                        continue;
                    }
                    for (int32_t ky = 0; ky < filter_dims->h; ++ky)
                    {
                        const int32_t oy = y * p->stride.h - p->padding.h + ky * p->dilation.h;
                        if ((uint32_t)oy >= (uint32_t)out_h)
                        {
                            continue;
                        }
                        for (int32_t kx = 0; kx < filter_dims->w; ++kx)
                        {
                            const int32_t ox = x * p->stride.w - p->padding.w + kx * p->dilation.w;
                            if ((uint32_t)ox >= (uint32_t)out_w)
                            {
                                continue;
                            }
                            flt_t *out_px = output_b + ((size_t)oy * out_w + ox) * out_c;
                            const flt_t *w = filter_data + ((size_t)ky * filter_dims->w + kx) * in_c + ic;
                            for (int32_t oc = 0; oc < out_c; ++oc)
                            {
                                out_px[oc] += (flt_arith_t)v * (flt_arith_t)w[(size_t)oc * filter_stride];
                            }
                        }
                    }
                }
            }
        }
        for (size_t i = 0; i < (size_t)out_h * out_w * out_c; ++i)
        {
            output_b[i] = (flt_t)flt_clamp_output((flt_arith_t)output_b[i], (flt_arith_t)p->activation.min,
                                                  (flt_arith_t)p->activation.max);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status ARM_TRANSPOSE_CONV_FLT(const cmsis_nn_context *ctx,
                                           const cmsis_nn_context *output_ctx,
                                           const flt_transpose_conv_params_t *transpose_conv_params,
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
    return ARM_TRANSPOSE_CONV_NHWC_FLT(ctx, output_ctx, transpose_conv_params, input_dims, input_data, filter_dims,
                                       filter_data, bias_dims, bias_data, output_dims, output_data);
}

arm_cmsis_nn_status ARM_TRANSPOSE_CONV_WRAPPER_FLT(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_context *output_ctx,
                                                   const flt_transpose_conv_params_t *transpose_conv_params,
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
    return ARM_TRANSPOSE_CONV_FLT(ctx, output_ctx, transpose_conv_params, input_dims, input_data, filter_dims,
                                  filter_data, bias_dims, bias_data, output_dims, output_data, layout);
}

/* The float transpose convolution needs no scratch, in ns-cmsis-nn as here. */
int32_t ARM_TRANSPOSE_CONV_FLT_GET_BUFFER_SIZE(const flt_transpose_conv_params_t *transpose_conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *out_dims)
{
    (void)transpose_conv_params;
    (void)input_dims;
    (void)filter_dims;
    (void)out_dims;
    return 0;
}

int32_t
ARM_TRANSPOSE_CONV_FLT_GET_REVERSE_CONV_BUFFER_SIZE(const flt_transpose_conv_params_t *transpose_conv_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const cmsis_nn_dims *filter_dims)
{
    (void)transpose_conv_params;
    (void)input_dims;
    (void)filter_dims;
    return 0;
}

#endif /* HELIA_PORTABLE_ARM_TRANSPOSE_CONV_FLT_BODY_H */
