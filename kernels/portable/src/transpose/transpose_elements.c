/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private TRANSPOSE of tensors of any element size (the float kernels). */

#include "transpose_elements.h"

arm_cmsis_nn_status helia_transpose_elements(const void *input,
                                             void *output,
                                             size_t element_size,
                                             int32_t num_dims,
                                             const int32_t perm[4],
                                             int32_t layout,
                                             const cmsis_nn_dims *input_dims,
                                             const cmsis_nn_dims *output_dims)
{
    if (input == NULL || output == NULL || perm == NULL || input_dims == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (num_dims < 1 || num_dims > 4 || layout != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_all[4] = {input_dims->n, input_dims->h, input_dims->w, input_dims->c};
    const int32_t out_all[4] = {output_dims->n, output_dims->h, output_dims->w, output_dims->c};
    int32_t shape[4] = {1, 1, 1, 1};
    size_t out_stride_of_axis[4] = {0, 0, 0, 0};
    size_t out_strides[4] = {0, 0, 0, 0};
    for (int32_t i = 0; i < num_dims; ++i)
    {
        if (perm[i] < 0 || perm[i] >= num_dims)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        shape[i] = in_all[i];
    }
    /* Row-major strides of the output, then the output stride each input axis moves along: input
     * axis perm[i] is output axis i. (A perm with repeats is not a permutation; the axes it leaves
     * out keep their own stride, as in ns-cmsis-nn.) */
    out_strides[num_dims - 1] = 1;
    for (int32_t i = num_dims - 2; i >= 0; --i)
    {
        out_strides[i] = out_strides[i + 1] * (size_t)out_all[i + 1];
    }
    for (int32_t i = 0; i < num_dims; ++i)
    {
        out_stride_of_axis[i] = out_strides[i];
    }
    for (int32_t i = 0; i < num_dims; ++i)
    {
        out_stride_of_axis[perm[i]] = out_strides[i];
    }

    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (int32_t i0 = 0; i0 < shape[0]; ++i0)
    {
        for (int32_t i1 = 0; i1 < shape[1]; ++i1)
        {
            for (int32_t i2 = 0; i2 < shape[2]; ++i2)
            {
                for (int32_t i3 = 0; i3 < shape[3]; ++i3)
                {
                    const size_t to = (size_t)i0 * out_stride_of_axis[0] + (size_t)i1 * out_stride_of_axis[1] +
                        (size_t)i2 * out_stride_of_axis[2] + (size_t)i3 * out_stride_of_axis[3];
                    memcpy(out + to * element_size, in, element_size);
                    in += element_size;
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
