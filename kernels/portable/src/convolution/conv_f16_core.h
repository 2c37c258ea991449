/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private float16 CONV_2D arithmetic, one function per summation order. */

#ifndef HELIA_PORTABLE_CONV_F16_CORE_H
#define HELIA_PORTABLE_CONV_F16_CORE_H

#include "conv_flt_rules.h"

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

#endif /* HELIA_PORTABLE_CONV_F16_CORE_H */
