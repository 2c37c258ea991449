/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_resize_nearest_neighbor_s8, RESIZE_NEAREST_NEIGHBOR of an NHWC int8 tensor. */

#include "arm_nnfunctions.h"
#include "space_batch_elements.h"

/* Indices are computed per output row and column as they are needed: ctx->buf is never read. */
arm_cmsis_nn_status arm_resize_nearest_neighbor_s8(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_resize_params *resize_params,
                                                   const cmsis_nn_dims *input_shape,
                                                   const int8_t *input_data,
                                                   const cmsis_nn_dims *output_size_shape,
                                                   const int32_t *output_size_data,
                                                   const cmsis_nn_dims *output_shape,
                                                   int8_t *output_data)
{
    if (ctx == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return helia_resize_nearest_neighbor_elements(resize_params, input_shape, input_data, output_size_shape,
                                                  output_size_data, output_shape, output_data, sizeof(int8_t));
}
