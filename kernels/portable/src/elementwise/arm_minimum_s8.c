/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_minimum_s8, int8 MINIMUM with NumPy broadcasting (NHWC). */

#include "minmax_int.h"

/* ctx is not read (no scratch). Shapes that do not broadcast to output_dims: ARM_CMSIS_NN_ARG_ERROR. */
arm_cmsis_nn_status arm_minimum_s8(const cmsis_nn_context *ctx,
                                   const int8_t *input_1_data,
                                   const cmsis_nn_dims *input_1_dims,
                                   const int8_t *input_2_data,
                                   const cmsis_nn_dims *input_2_dims,
                                   int8_t *output_data,
                                   const cmsis_nn_dims *output_dims)
{
    (void)ctx;
    return helia_minmax_s8(input_1_data, input_1_dims, input_2_data, input_2_dims, output_data, output_dims, 0);
}
