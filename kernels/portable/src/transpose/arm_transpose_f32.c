/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_transpose_f32, TRANSPOSE of float32 tensors with 1 to 4 dimensions. */

#include "arm_nnfunctions.h"
#include "transpose_elements.h"

#if ARM_NN_ENABLE_F32

/* Output axis i is input axis params->perm[i] over the first params->num_dims axes; ctx is not read. */
arm_cmsis_nn_status arm_transpose_f32(const cmsis_nn_context *ctx,
                                      const cmsis_nn_transpose_params_f32 *params,
                                      const cmsis_nn_dims *input_dims,
                                      const float32_t *input,
                                      const cmsis_nn_dims *output_dims,
                                      float32_t *output)
{
    (void)ctx;
    if (params == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return helia_transpose_elements(input, output, sizeof(float32_t), params->num_dims, params->perm,
                                    (int32_t)params->layout, input_dims, output_dims);
}

#endif /* ARM_NN_ENABLE_F32 */
