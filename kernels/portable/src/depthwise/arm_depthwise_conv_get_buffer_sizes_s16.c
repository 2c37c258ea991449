/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: int16 DEPTHWISE_CONV_2D scratch sizers, as each ns-cmsis-nn build reports them. */

/* The portable kernels need no scratch; see arm_convolve_get_buffer_sizes_s8.c for why these exist. */

#include "arm_nnfunctions.h"
#include "depthwise_s16_rules.h"

/* The plain-C fast entry is the general kernel: no scratch. */
int32_t arm_depthwise_conv_fast_s16_get_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims)
{
    (void)input_dims;
    (void)filter_dims;
    return 0;
}

int32_t arm_depthwise_conv_wrapper_s16_get_buffer_size(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                       const cmsis_nn_dims *input_dims,
                                                       const cmsis_nn_dims *filter_dims,
                                                       const cmsis_nn_dims *output_dims)
{
    (void)output_dims;
    if (helia_depthwise_s16_fast_applies(dw_conv_params, filter_dims))
    {
        return arm_depthwise_conv_fast_s16_get_buffer_size(input_dims, filter_dims);
    }
    return 0;
}

/* DSP: one int16 im2col column of all channels. */
int32_t arm_depthwise_conv_wrapper_s16_get_buffer_size_dsp(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                           const cmsis_nn_dims *input_dims,
                                                           const cmsis_nn_dims *filter_dims,
                                                           const cmsis_nn_dims *output_dims)
{
    (void)output_dims;
    if (helia_depthwise_s16_fast_applies(dw_conv_params, filter_dims))
    {
        return input_dims->c * filter_dims->w * filter_dims->h * (int32_t)sizeof(int16_t);
    }
    return 0;
}

/* Helium: four int16 columns plus 8 bytes its matrix kernel may read past the last one. */
int32_t arm_depthwise_conv_wrapper_s16_get_buffer_size_mve(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                           const cmsis_nn_dims *input_dims,
                                                           const cmsis_nn_dims *filter_dims,
                                                           const cmsis_nn_dims *output_dims)
{
    (void)output_dims;
    if (helia_depthwise_s16_fast_applies(dw_conv_params, filter_dims))
    {
        return 4 * input_dims->c * filter_dims->w * filter_dims->h * (int32_t)sizeof(int16_t) + 8;
    }
    return 0;
}
