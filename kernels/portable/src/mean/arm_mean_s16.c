/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_mean_s16, int16 MEAN over any subset of the N, H, W, C axes. */

#include "arm_nnfunctions.h"
#include "mean_core.h"

/* See mean_core.h: input_offset is minus the input zero point, out_offset the output zero point,
 * and 1/count is folded into out_mult/out_shift. */
arm_cmsis_nn_status arm_mean_s16(const int16_t *input_data,
                                 const cmsis_nn_dims *input_dims,
                                 const int32_t input_offset,
                                 const cmsis_nn_dims *axis_dims,
                                 int16_t *output_data,
                                 const cmsis_nn_dims *output_dims,
                                 const int32_t out_offset,
                                 const int32_t out_mult,
                                 const int32_t out_shift)
{
    return helia_mean(input_data, 16, input_dims, input_offset, axis_dims, output_data, output_dims, out_offset, out_mult,
                      out_shift);
}
