/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private reference convolution shared by all CONV_2D entry points. */

#ifndef HELIA_PORTABLE_CONV_CORE_H
#define HELIA_PORTABLE_CONV_CORE_H

#include "arm_nnfunctions.h"

/*
 * out[b, oy, ox, oc] = clamp(out_offset + requantize(bias[oc] +
 *     sum over in-bounds taps (ky, kx) and filter channels ic of
 *     (in[b, oy*sy - py + ky*dy, ox*sx - px + kx*dx, g*kc + ic] + input_offset) * filter[oc, ky, kx, ic]))
 * where kc = filter_dims->c, groups = input channels / kc and g = oc / (output channels / groups).
 * Taps outside the input read the zero point, i.e. contribute nothing. upscale_dims may be NULL
 * (see arm_convolve_s8). Returns ARG_ERROR when the channels do not split into whole groups.
 */
arm_cmsis_nn_status helia_convolve_s8_reference(const cmsis_nn_conv_params *conv_params,
                                                const cmsis_nn_per_channel_quant_params *quant_params,
                                                const cmsis_nn_dims *input_dims,
                                                const int8_t *input_data,
                                                const cmsis_nn_dims *filter_dims,
                                                const int8_t *filter_data,
                                                const int32_t *bias_data,
                                                const cmsis_nn_dims *upscale_dims,
                                                const cmsis_nn_dims *output_dims,
                                                int8_t *output_data);

#endif /* HELIA_PORTABLE_CONV_CORE_H */
