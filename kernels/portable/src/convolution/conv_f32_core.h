/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private float32 CONV_2D arithmetic, one function per summation order. */

#ifndef HELIA_PORTABLE_CONV_F32_CORE_H
#define HELIA_PORTABLE_CONV_F32_CORE_H

#include "conv_flt_rules.h"

#if ARM_NN_ENABLE_F32

/*
 * Computes the whole convolution (every batch and output pixel) with the summation order of
 * `route` (see conv_flt_rules.h). Filter [out][kh][kw][input_dims->c], bias may be NULL.
 */
void helia_conv_f32_run(helia_conv_flt_route route,
                        const helia_conv_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const float32_t *input,
                        const cmsis_nn_dims *filter_dims,
                        const float32_t *filter,
                        const float32_t *bias,
                        const cmsis_nn_dims *output_dims,
                        float32_t *output,
                        const cmsis_nn_activation_f32 *activation);

#endif /* ARM_NN_ENABLE_F32 */

#endif /* HELIA_PORTABLE_CONV_F32_CORE_H */
