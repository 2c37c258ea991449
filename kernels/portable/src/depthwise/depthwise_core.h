/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private reference depthwise convolution shared by the DEPTHWISE_CONV_2D entries. */

#ifndef HELIA_PORTABLE_DEPTHWISE_CORE_H
#define HELIA_PORTABLE_DEPTHWISE_CORE_H

#include "arm_nnfunctions.h"

/*
 * For output channel oc = ic * ch_mult + m (ic an input channel):
 * out[b, oy, ox, oc] = clamp(output_offset + requantize(bias[oc] +
 *     sum over in-bounds taps (ky, kx) of
 *     (in[b, oy*sy - py + ky*dy, ox*sx - px + kx*dx, ic] + input_offset) * filter[ky, kx, oc]))
 * over the first `batches` images. Taps outside the input contribute nothing.
 */
void helia_depthwise_conv_s8_reference(const cmsis_nn_dw_conv_params *dw_conv_params,
                                       const cmsis_nn_per_channel_quant_params *quant_params,
                                       int32_t batches,
                                       const cmsis_nn_dims *input_dims,
                                       const int8_t *input_data,
                                       const cmsis_nn_dims *filter_dims,
                                       const int8_t *filter_data,
                                       const int32_t *bias_data,
                                       const cmsis_nn_dims *output_dims,
                                       int8_t *output_data);

#endif /* HELIA_PORTABLE_DEPTHWISE_CORE_H */
