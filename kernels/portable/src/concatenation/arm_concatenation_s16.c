/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_concatenation_s16, CONCATENATION of any number of int16 tensors along one axis. */

#include "arm_nnfunctions.h"

/*
 * The output has output_dims axes of sizes output_shape[]; input i has the same shape except
 * input_concat_dims[i] along `axis`. For each position of the axes before `axis`, the inputs'
 * blocks (their extent along `axis` times everything after it) are copied one after another.
 */
arm_cmsis_nn_status arm_concatenation_s16(const int16_t *const *input_data,
                                          const int32_t inputs_count,
                                          const int32_t *input_concat_dims,
                                          const int32_t axis,
                                          int16_t *output_data,
                                          const int32_t output_dims,
                                          const int32_t *output_shape)
{
    size_t outer = 1;
    for (int32_t d = 0; d < axis; ++d)
    {
        outer *= (size_t)output_shape[d];
    }
    size_t inner = 1;
    for (int32_t d = axis + 1; d < output_dims; ++d)
    {
        inner *= (size_t)output_shape[d];
    }
    int16_t *out = output_data;
    for (size_t k = 0; k < outer; ++k)
    {
        for (int32_t i = 0; i < inputs_count; ++i)
        {
            const size_t block = (size_t)input_concat_dims[i] * inner;
            memcpy(out, input_data[i] + k * block, block * sizeof(int16_t));
            out += block;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
