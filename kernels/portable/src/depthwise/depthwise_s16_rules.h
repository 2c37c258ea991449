/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private shape test that routes int16 DEPTHWISE_CONV_2D to the fast entry. */

#ifndef HELIA_PORTABLE_DEPTHWISE_S16_RULES_H
#define HELIA_PORTABLE_DEPTHWISE_S16_RULES_H

#include "arm_nnfunctions.h"

/* Channel multiplier 1, no dilation and fewer than 512 kernel taps. */
int helia_depthwise_s16_fast_applies(const cmsis_nn_dw_conv_params *dw_conv_params, const cmsis_nn_dims *filter_dims);

#endif /* HELIA_PORTABLE_DEPTHWISE_S16_RULES_H */
