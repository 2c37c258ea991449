/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private int8 / int16 MAXIMUM and MINIMUM with NumPy broadcasting. */

#ifndef HELIA_PORTABLE_MINMAX_INT_H
#define HELIA_PORTABLE_MINMAX_INT_H

#include "arm_nnfunctions.h"

/* take_max non-zero: the larger of each pair, else the smaller. Integers have no NaN or signed zero,
 * so which operand is compared first cannot change the result (unlike the float kernels). */
arm_cmsis_nn_status helia_minmax_s8(const int8_t *input_1_data,
                                    const cmsis_nn_dims *input_1_dims,
                                    const int8_t *input_2_data,
                                    const cmsis_nn_dims *input_2_dims,
                                    int8_t *output_data,
                                    const cmsis_nn_dims *output_dims,
                                    int take_max);

arm_cmsis_nn_status helia_minmax_s16(const int16_t *input_1_data,
                                     const cmsis_nn_dims *input_1_dims,
                                     const int16_t *input_2_data,
                                     const cmsis_nn_dims *input_2_dims,
                                     int16_t *output_data,
                                     const cmsis_nn_dims *output_dims,
                                     int take_max);

#endif /* HELIA_PORTABLE_MINMAX_INT_H */
