/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_batch_matmul_s16, int16 batched LHS x RHS^T with batch broadcasting. */

#include "../support/fixed_point.h"
#include "batch_matmul_walk.h"

/*
 * As arm_batch_matmul_s8 with int16 operands and no offsets (symmetric int16): the products summed in int64 and
 * requantized with the multiplier reduced to 16 bits (TFLite's int64 MultiplyByQuantizedMultiplier), then
 * clamped. The adjoint flags and ctx are not read.
 */
arm_cmsis_nn_status arm_batch_matmul_s16(const cmsis_nn_context *ctx,
                                         const cmsis_nn_bmm_params *bmm_params,
                                         const cmsis_nn_per_tensor_quant_params *quant_params,
                                         const cmsis_nn_dims *input_lhs_dims,
                                         const int16_t *input_lhs,
                                         const cmsis_nn_dims *input_rhs_dims,
                                         const int16_t *input_rhs,
                                         const cmsis_nn_dims *output_dims,
                                         int16_t *output)
{
    (void)ctx;
    helia_bmm_walk walk;
    if (bmm_params == NULL || quant_params == NULL || input_lhs == NULL || input_rhs == NULL || output == NULL ||
        helia_bmm_make_walk(input_lhs_dims, input_rhs_dims, output_dims, &walk) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const cmsis_nn_activation *act = &bmm_params->fc_params.activation;
    const int32_t reduced = helia_reduce_multiplier(quant_params->multiplier);
    const int32_t rows = input_lhs_dims->w;
    const int32_t cols = input_rhs_dims->w;
    const int32_t inner = input_lhs_dims->c;
    int16_t *out = output;
    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        for (int32_t h = 0; h < output_dims->h; ++h)
        {
            const int16_t *lhs = input_lhs + n * walk.lhs_n_step + h * walk.lhs_h_step;
            const int16_t *rhs = input_rhs + n * walk.rhs_n_step + h * walk.rhs_h_step;
            for (int32_t i = 0; i < rows; ++i)
            {
                for (int32_t j = 0; j < cols; ++j)
                {
                    int64_t acc = 0;
                    for (int32_t k = 0; k < inner; ++k)
                    {
                        acc += (int64_t)lhs[i * inner + k] * rhs[j * inner + k];
                    }
                    const int32_t value = helia_requantize_s64(acc, reduced, quant_params->shift);
                    *out++ = (int16_t)helia_clamp(value, act->min, act->max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
