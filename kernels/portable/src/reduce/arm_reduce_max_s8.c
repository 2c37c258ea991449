/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_reduce_max_s8, REDUCE_MAX over chosen NHWC axes. */

#include "arm_nnfunctions.h"
#include "reduce_extreme_core.h"

arm_cmsis_nn_status arm_reduce_max_s8(const int8_t *input_data,
                                      const cmsis_nn_dims *input_dims,
                                      const cmsis_nn_dims *axis_dims,
                                      int8_t *output_data,
                                      const cmsis_nn_dims *output_dims)
{
    return helia_reduce_extreme(input_data, 8, true, input_dims, axis_dims, output_data, output_dims);
}
