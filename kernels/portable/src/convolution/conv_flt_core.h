/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private float32 / float16 CONV_2D arithmetic, one function per summation order. */

#ifndef HELIA_PORTABLE_CONV_FLT_CORE_H
#define HELIA_PORTABLE_CONV_FLT_CORE_H

#include "conv_flt_rules.h"

#if ARM_NN_ENABLE_F32

/*
 * Computes the whole convolution (every batch and output pixel) with the summation order of
 * `route` (see conv_flt_core_body.h). Filter [out][kh][kw][input_dims->c], bias may be NULL.
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

#if ARM_NN_ENABLE_F16

/* As helia_conv_f32_run, for float16 (see conv_f16_core.c for where values are rounded). */
void helia_conv_f16_run(helia_conv_flt_route route,
                        const helia_conv_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const float16_t *input,
                        const cmsis_nn_dims *filter_dims,
                        const float16_t *filter,
                        const float16_t *bias,
                        const cmsis_nn_dims *output_dims,
                        float16_t *output,
                        const cmsis_nn_activation_f16 *activation);

#endif /* ARM_NN_ENABLE_F16 */

#endif /* HELIA_PORTABLE_CONV_FLT_CORE_H */
