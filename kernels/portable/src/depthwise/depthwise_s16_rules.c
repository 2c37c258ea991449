/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the shape test ns-cmsis-nn's int16 DEPTHWISE_CONV_2D wrapper and sizers dispatch on. */

#include "depthwise_s16_rules.h"

int helia_depthwise_s16_fast_applies(const cmsis_nn_dw_conv_params *dw_conv_params, const cmsis_nn_dims *filter_dims)
{
    return dw_conv_params->ch_mult == 1 && dw_conv_params->dilation.w == 1 && dw_conv_params->dilation.h == 1 &&
        filter_dims->w * filter_dims->h < 512;
}
