/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private shape tests that decide which CONV_2D entry point applies. */

#ifndef HELIA_PORTABLE_CONV_SHAPE_RULES_H
#define HELIA_PORTABLE_CONV_SHAPE_RULES_H

#include "arm_nnfunctions.h"

/* 1x1 filter over all input channels, no padding, no dilation. */
int helia_conv_is_1x1(const cmsis_nn_conv_params *conv_params,
                      const cmsis_nn_dims *input_dims,
                      const cmsis_nn_dims *filter_dims);

/* A 1x1 convolution that also has stride 1 (a plain matrix product). */
int helia_conv_is_1x1_stride_1(const cmsis_nn_conv_params *conv_params);

/* One input row, 1xN filter over all channels, no x dilation, stride_w * channels a multiple of 4. */
int helia_conv_is_1_x_n(const cmsis_nn_conv_params *conv_params,
                        const cmsis_nn_dims *input_dims,
                        const cmsis_nn_dims *filter_dims);

#endif /* HELIA_PORTABLE_CONV_SHAPE_RULES_H */
