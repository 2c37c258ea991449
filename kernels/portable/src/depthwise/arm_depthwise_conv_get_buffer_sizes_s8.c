/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: DEPTHWISE_CONV_2D scratch sizers, as each ns-cmsis-nn build reports them. */

/*
 * The portable kernels need no scratch; see arm_convolve_get_buffer_sizes_s8.c for why these
 * exist. Unsuffixed = plain-C build, _dsp = DSP build, _mve = Helium build (compiled by GCC).
 */

#include "arm_nnfunctions.h"

/* Channels per block in the Helium depthwise kernel, and the output-channel count above which a
 * one-input-channel depthwise convolution is run as a regular convolution (GCC builds). */
enum
{
    MVE_CHANNEL_BLOCK = 124,
    MVE_DW_TO_CONV_MIN_OUTPUT_CH = 1
};

static int opt_kernel_applies(const cmsis_nn_dw_conv_params *dw_conv_params,
                              const cmsis_nn_dims *input_dims,
                              const cmsis_nn_dims *output_dims)
{
    return input_dims->c == output_dims->c && input_dims->n == 1 && dw_conv_params->dilation.w == 1 &&
        dw_conv_params->dilation.h == 1;
}

static int three_by_three_kernel_applies(const cmsis_nn_dw_conv_params *dw_conv_params,
                                         const cmsis_nn_dims *filter_dims)
{
    return filter_dims->w == 3 && filter_dims->h == 3 && dw_conv_params->padding.h <= 1 &&
        dw_conv_params->padding.w <= 1;
}

int32_t arm_depthwise_conv_s8_opt_get_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims)
{
    (void)input_dims;
    (void)filter_dims;
    return 0;
}

int32_t arm_depthwise_conv_wrapper_s8_get_buffer_size(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                      const cmsis_nn_dims *input_dims,
                                                      const cmsis_nn_dims *filter_dims,
                                                      const cmsis_nn_dims *output_dims)
{
    if (opt_kernel_applies(dw_conv_params, input_dims, output_dims) &&
        !three_by_three_kernel_applies(dw_conv_params, filter_dims))
    {
        return arm_depthwise_conv_s8_opt_get_buffer_size(input_dims, filter_dims);
    }
    return 0;
}

int32_t arm_depthwise_conv_wrapper_s8_get_buffer_size_dsp(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                          const cmsis_nn_dims *input_dims,
                                                          const cmsis_nn_dims *filter_dims,
                                                          const cmsis_nn_dims *output_dims)
{
    if (opt_kernel_applies(dw_conv_params, input_dims, output_dims) &&
        !three_by_three_kernel_applies(dw_conv_params, filter_dims))
    {
        /* one int16 im2col column of all channels */
        return input_dims->c * filter_dims->w * filter_dims->h * (int32_t)sizeof(int16_t);
    }
    return 0;
}

int32_t arm_depthwise_conv_wrapper_s8_get_buffer_size_mve(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                          const cmsis_nn_dims *input_dims,
                                                          const cmsis_nn_dims *filter_dims,
                                                          const cmsis_nn_dims *output_dims)
{
    int32_t size = 0;
    if (opt_kernel_applies(dw_conv_params, input_dims, output_dims))
    {
        size = 4 * MVE_CHANNEL_BLOCK * filter_dims->w * filter_dims->h * (int32_t)sizeof(int8_t);
    }
    if (input_dims->c == 1 && output_dims->c > MVE_DW_TO_CONV_MIN_OUTPUT_CH)
    {
        /* Run as a convolution: its scratch plus room for the filter transposed to conv layout. */
        const cmsis_nn_dims conv_filter = {filter_dims->c, filter_dims->h, filter_dims->w, filter_dims->n};
        const cmsis_nn_conv_params conv_params = {dw_conv_params->input_offset,
                                                  dw_conv_params->output_offset,
                                                  dw_conv_params->stride,
                                                  dw_conv_params->padding,
                                                  dw_conv_params->dilation,
                                                  dw_conv_params->activation};
        const int32_t as_conv_size =
            arm_convolve_wrapper_s8_get_buffer_size_mve(&conv_params, input_dims, &conv_filter, output_dims) +
            filter_dims->c * filter_dims->h * filter_dims->w * filter_dims->n;
        if (as_conv_size > size)
        {
            return as_conv_size;
        }
    }
    return size;
}
