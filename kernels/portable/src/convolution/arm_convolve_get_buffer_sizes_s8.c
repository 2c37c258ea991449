/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: CONV_2D scratch sizers, reporting what each ns-cmsis-nn build asks for. */

/*
 * The portable kernels need no scratch. These functions exist so generated code that sizes
 * buffers by calling them gets the same numbers as with ns-cmsis-nn: the unsuffixed functions
 * answer like its plain-C build, the _mve / _dsp ones like its Helium / DSP builds (compiled by
 * GCC, where the DSP 1x1 fast path needs no buffer).
 */

#include "arm_nnfunctions.h"
#include "conv_shape_rules.h"

static int32_t max_i32(int32_t a, int32_t b)
{
    return a > b ? a : b;
}

/* Plain C / DSP: two im2col columns of int16, each padded to a multiple of 4 entries. */
int32_t arm_convolve_s8_get_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims)
{
    const int32_t column = filter_dims->w * filter_dims->h * input_dims->c;
    const int32_t padded_column = (column + 3) / 4 * 4;
    return 2 * padded_column * (int32_t)sizeof(int16_t);
}

/* Helium: four int8 im2col columns, each rounded up to whole 16-byte vectors. */
int32_t arm_convolve_s8_get_buffer_size_mve(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims)
{
    const int32_t column = input_dims->c * filter_dims->w * filter_dims->h;
    const int32_t vectors = (column + 15) / 16;
    return 4 * vectors * 16 * (int32_t)sizeof(int8_t);
}

/* Only the Helium build keeps per-channel weight sums; the plain-C build asks for none. */
int32_t arm_convolve_s8_get_weights_sum_size(const cmsis_nn_dims *output_dims)
{
    (void)output_dims;
    return 0;
}

int32_t arm_convolve_1x1_s8_fast_get_buffer_size(const cmsis_nn_dims *input_dims)
{
    (void)input_dims;
    return 0;
}

int32_t arm_convolve_1_x_n_s8_get_buffer_size(const cmsis_nn_conv_params *conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *output_dims)
{
    (void)conv_params;
    (void)output_dims;
    return arm_convolve_s8_get_buffer_size(input_dims, filter_dims);
}

/*
 * Helium 1xN: one padded edge window at a time. Falls back to the general size when the padding
 * does not split into left/middle/right runs the way the Helium kernel expects.
 */
static int32_t convolve_1_x_n_buffer_size_mve(const cmsis_nn_conv_params *conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *output_dims)
{
    const int32_t channels = input_dims->c;
    const int32_t pad_x = conv_params->padding.w;
    const int32_t stride_x = conv_params->stride.w;
    const int32_t kernel_x = filter_dims->w;
    const int32_t output_x = output_dims->w;
    const int32_t total_pad = (output_x - 1) * stride_x + kernel_x - input_dims->w;
    const int32_t odd_pad = total_pad % 2;
    const int32_t right_pad_outputs =
        (pad_x + odd_pad) != 0 ? max_i32(1, (pad_x + odd_pad + stride_x - 1) / stride_x) : 0;
    const int32_t left_pad_outputs = pad_x != 0 ? max_i32(1, (pad_x + stride_x - 1) / stride_x) : 0;
    const int32_t unpadded_outputs = max_i32(output_x - (right_pad_outputs + left_pad_outputs), 0);
    if (right_pad_outputs + unpadded_outputs + left_pad_outputs != output_x)
    {
        return arm_convolve_s8_get_buffer_size_mve(input_dims, filter_dims);
    }
    const int32_t left_pad_size = pad_x * channels;
    const int32_t right_pad_size = odd_pad ? right_pad_outputs * channels : left_pad_size;
    const int32_t left_window = kernel_x * channels;
    const int32_t right_window = left_window - channels;
    return max_i32(left_window + left_pad_size, right_window + right_pad_size);
}

int32_t arm_convolve_wrapper_s8_get_buffer_size(const cmsis_nn_conv_params *conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const cmsis_nn_dims *filter_dims,
                                                const cmsis_nn_dims *output_dims)
{
    if (helia_conv_is_1x1(conv_params, input_dims, filter_dims))
    {
        return helia_conv_is_1x1_stride_1(conv_params) ? arm_convolve_1x1_s8_fast_get_buffer_size(input_dims) : 0;
    }
    if (helia_conv_is_1_x_n(conv_params, input_dims, filter_dims))
    {
        return arm_convolve_1_x_n_s8_get_buffer_size(conv_params, input_dims, filter_dims, output_dims);
    }
    return arm_convolve_s8_get_buffer_size(input_dims, filter_dims);
}

int32_t arm_convolve_wrapper_s8_get_buffer_size_mve(const cmsis_nn_conv_params *conv_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const cmsis_nn_dims *filter_dims,
                                                    const cmsis_nn_dims *output_dims)
{
    if (helia_conv_is_1x1(conv_params, input_dims, filter_dims))
    {
        return 0; /* the Helium 1x1 kernels work in place */
    }
    if (helia_conv_is_1_x_n(conv_params, input_dims, filter_dims))
    {
        return convolve_1_x_n_buffer_size_mve(conv_params, input_dims, filter_dims, output_dims);
    }
    return arm_convolve_s8_get_buffer_size_mve(input_dims, filter_dims);
}

int32_t arm_convolve_wrapper_s8_get_buffer_size_dsp(const cmsis_nn_conv_params *conv_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const cmsis_nn_dims *filter_dims,
                                                    const cmsis_nn_dims *output_dims)
{
    if (helia_conv_is_1x1(conv_params, input_dims, filter_dims))
    {
        return 0; /* the DSP 1x1 fast path only buffers when built with Arm Compiler 6 */
    }
    if (helia_conv_is_1_x_n(conv_params, input_dims, filter_dims))
    {
        return arm_convolve_1_x_n_s8_get_buffer_size(conv_params, input_dims, filter_dims, output_dims);
    }
    return arm_convolve_s8_get_buffer_size(input_dims, filter_dims);
}
