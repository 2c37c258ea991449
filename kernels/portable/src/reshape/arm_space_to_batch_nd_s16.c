/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_space_to_batch_nd_s16, SPACE_TO_BATCH_ND of an NHWC int16 tensor. */

#include "arm_nnfunctions.h"
#include "space_batch_elements.h"

/* int16 is symmetric: padding is 0, and any other output_offset is refused (as ns-cmsis-nn does). */
arm_cmsis_nn_status arm_space_to_batch_nd_s16(const int16_t *input_data,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_tile *block_shape,
                                              const cmsis_nn_dims *pad,
                                              int16_t *output_data,
                                              const cmsis_nn_dims *output_dims,
                                              const int32_t output_offset)
{
    const int16_t pad_value = 0;
    if (output_dims == NULL || output_offset != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return helia_space_to_batch_nd_elements(input_data, input_dims, block_shape, pad, output_data, output_dims,
                                            &pad_value, sizeof(pad_value));
}
