/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the shape tests ns-cmsis-nn's CONV_2D wrapper and sizers dispatch on. */

#include "conv_shape_rules.h"

int helia_conv_is_1x1(const cmsis_nn_conv_params *conv_params,
                      const cmsis_nn_dims *input_dims,
                      const cmsis_nn_dims *filter_dims)
{
    return conv_params->padding.w == 0 && conv_params->padding.h == 0 && filter_dims->w == 1 &&
        filter_dims->h == 1 && conv_params->dilation.w == 1 && conv_params->dilation.h == 1 &&
        input_dims->c == filter_dims->c;
}

int helia_conv_is_1x1_stride_1(const cmsis_nn_conv_params *conv_params)
{
    return conv_params->stride.w == 1 && conv_params->stride.h == 1;
}

int helia_conv_is_1_x_n(const cmsis_nn_conv_params *conv_params,
                        const cmsis_nn_dims *input_dims,
                        const cmsis_nn_dims *filter_dims)
{
    return input_dims->h == 1 && conv_params->dilation.w == 1 && filter_dims->h == 1 &&
        (conv_params->stride.w * input_dims->c) % 4 == 0 && input_dims->c == filter_dims->c;
}
