/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_maximum_s16, int16 MAXIMUM with NumPy broadcasting (NHWC). */

#include "minmax_int.h"

/* ctx is not read (no scratch). Shapes that do not broadcast to output_dims: ARM_CMSIS_NN_ARG_ERROR. */
arm_cmsis_nn_status arm_maximum_s16(const cmsis_nn_context *ctx,
                                    const int16_t *input_1_data,
                                    const cmsis_nn_dims *input_1_dims,
                                    const int16_t *input_2_data,
                                    const cmsis_nn_dims *input_2_dims,
                                    int16_t *output_data,
                                    const cmsis_nn_dims *output_dims)
{
    (void)ctx;
    return helia_minmax_s16(input_1_data, input_1_dims, input_2_data, input_2_dims, output_data, output_dims, 1);
}
