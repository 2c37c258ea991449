/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: TRANSPOSE_CONV scratch sizers, as each ns-cmsis-nn build reports them. */

/* The portable kernels need no scratch; see arm_convolve_get_buffer_sizes_s8.c for why these exist. */

#include "arm_nnfunctions.h"

/* Input channels above which ns-cmsis-nn's wrapper prefers the reverse convolution (strides <= 2). */
enum
{
    REVERSE_CONV_MIN_INPUT_CH = 17
};

static int reverse_conv_route(const cmsis_nn_transpose_conv_params *params, const cmsis_nn_dims *input_dims)
{
    return params->stride.w <= 2 && params->stride.h <= 2 && input_dims->c >= REVERSE_CONV_MIN_INPUT_CH;
}

/* arm_transpose_conv_s8's int32 accumulators: max(kernel, stride) rows of the widest output row. */
static int32_t rolling_buffer_size(const cmsis_nn_transpose_conv_params *params,
                                   const cmsis_nn_dims *input_dims,
                                   const cmsis_nn_dims *filter_dims,
                                   const cmsis_nn_dims *out_dims)
{
    const int32_t last_window = filter_dims->w > params->stride.w ? filter_dims->w : params->stride.w;
    const int32_t row_pixels = (input_dims->w - 1) * params->stride.w + last_window;
    const int32_t rows = filter_dims->h > params->stride.h ? filter_dims->h : params->stride.h;
    return row_pixels * out_dims->c * rows * (int32_t)sizeof(int32_t);
}

/* The upscaled input the reverse convolution reads. */
static cmsis_nn_dims upscaled_input(const cmsis_nn_transpose_conv_params *params, const cmsis_nn_dims *input_dims)
{
    const cmsis_nn_dims dims = {
        input_dims->n, input_dims->h * params->stride.h, input_dims->w * params->stride.w, input_dims->c};
    return dims;
}

/* Large enough for both routes, since callers may also call arm_transpose_conv_s8 directly. */
int32_t arm_transpose_conv_s8_get_buffer_size(const cmsis_nn_transpose_conv_params *transposed_conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *out_dims)
{
    const int32_t rolling = rolling_buffer_size(transposed_conv_params, input_dims, filter_dims, out_dims);
    if (reverse_conv_route(transposed_conv_params, input_dims))
    {
        const cmsis_nn_dims upscaled = upscaled_input(transposed_conv_params, input_dims);
        const int32_t conv = arm_convolve_s8_get_buffer_size(&upscaled, filter_dims);
        return conv > rolling ? conv : rolling;
    }
    return rolling;
}

int32_t arm_transpose_conv_s8_get_buffer_size_mve(const cmsis_nn_transpose_conv_params *transposed_conv_params,
                                                  const cmsis_nn_dims *input_dims,
                                                  const cmsis_nn_dims *filter_dims,
                                                  const cmsis_nn_dims *out_dims)
{
    const int32_t rolling = rolling_buffer_size(transposed_conv_params, input_dims, filter_dims, out_dims);
    if (reverse_conv_route(transposed_conv_params, input_dims))
    {
        const cmsis_nn_dims upscaled = upscaled_input(transposed_conv_params, input_dims);
        const int32_t conv = arm_convolve_s8_get_buffer_size_mve(&upscaled, filter_dims);
        return conv > rolling ? conv : rolling;
    }
    return rolling;
}

/* The reversed filter: every weight once, as int8. */
int32_t arm_transpose_conv_s8_get_reverse_conv_buffer_size(const cmsis_nn_transpose_conv_params *transposed_conv_params,
                                                           const cmsis_nn_dims *input_dims,
                                                           const cmsis_nn_dims *filter_dims)
{
    if (reverse_conv_route(transposed_conv_params, input_dims))
    {
        return input_dims->c * filter_dims->w * filter_dims->h * filter_dims->n;
    }
    return 0;
}
