/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_space_to_batch_nd_s8, SPACE_TO_BATCH_ND of an NHWC int8 tensor. */

#include "arm_nnfunctions.h"
#include "space_batch_elements.h"

/* pad holds {top, left, bottom, right} in {n, h, w, c}; padding takes the value output_offset (LiteRT pads
 * with the output zero point). */
arm_cmsis_nn_status arm_space_to_batch_nd_s8(const int8_t *input_data,
                                             const cmsis_nn_dims *input_dims,
                                             const cmsis_nn_tile *block_shape,
                                             const cmsis_nn_dims *pad,
                                             int8_t *output_data,
                                             const cmsis_nn_dims *output_dims,
                                             const int32_t output_offset)
{
    const int8_t pad_value = (int8_t)output_offset;
    return helia_space_to_batch_nd_elements(input_data, input_dims, block_shape, pad, output_data, output_dims,
                                            &pad_value, sizeof(pad_value));
}
