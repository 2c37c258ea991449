/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: int16 CONV_2D scratch sizers, as each ns-cmsis-nn build reports them. */

/* The portable kernels need no scratch; see arm_convolve_get_buffer_sizes_s8.c for why these exist. */

#include "arm_nnfunctions.h"

/* Plain C / DSP: two int16 im2col columns of all input channels. */
int32_t arm_convolve_s16_get_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims)
{
    return 2 * input_dims->c * filter_dims->w * filter_dims->h * (int32_t)sizeof(int16_t);
}

int32_t arm_convolve_wrapper_s16_get_buffer_size(const cmsis_nn_conv_params *conv_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const cmsis_nn_dims *output_dims)
{
    (void)conv_params;
    (void)output_dims;
    return arm_convolve_s16_get_buffer_size(input_dims, filter_dims);
}

int32_t arm_convolve_wrapper_s16_get_buffer_size_dsp(const cmsis_nn_conv_params *conv_params,
                                                     const cmsis_nn_dims *input_dims,
                                                     const cmsis_nn_dims *filter_dims,
                                                     const cmsis_nn_dims *output_dims)
{
    return arm_convolve_wrapper_s16_get_buffer_size(conv_params, input_dims, filter_dims, output_dims);
}

/* Helium: four int16 im2col columns, each rounded up to whole 8-lane vectors. */
int32_t arm_convolve_wrapper_s16_get_buffer_size_mve(const cmsis_nn_conv_params *conv_params,
                                                     const cmsis_nn_dims *input_dims,
                                                     const cmsis_nn_dims *filter_dims,
                                                     const cmsis_nn_dims *output_dims)
{
    (void)conv_params;
    (void)output_dims;
    const int32_t column = input_dims->c * filter_dims->w * filter_dims->h;
    const int32_t vectors = (column + 7) / 8;
    return 4 * vectors * 8 * (int32_t)sizeof(int16_t);
}
