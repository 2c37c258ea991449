/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_batch_matmul_s8, int8 batched LHS x RHS^T with batch broadcasting. */

#include "../support/fixed_point.h"
#include "batch_matmul_walk.h"

/*
 * out[n][h][i][j] = clamp(requantize(sum_k (lhs[n][h][i][k] + input_offset) * (rhs[n][h][j][k] + filter_offset))
 *                         + output_offset): the LHS is (n, h, w = rows, c = inner), the RHS already transposed
 * (n, h, w = output columns, c = inner), as TFLite's int8 BatchMatMul after its RHS transposition. The adjoint
 * flags are not read; ctx is not read (no scratch on any build here).
 */
arm_cmsis_nn_status arm_batch_matmul_s8(const cmsis_nn_context *ctx,
                                        const cmsis_nn_bmm_params *bmm_params,
                                        const cmsis_nn_per_tensor_quant_params *quant_params,
                                        const cmsis_nn_dims *input_lhs_dims,
                                        const int8_t *input_lhs,
                                        const cmsis_nn_dims *input_rhs_dims,
                                        const int8_t *input_rhs,
                                        const cmsis_nn_dims *output_dims,
                                        int8_t *output)
{
    (void)ctx;
    helia_bmm_walk walk;
    if (bmm_params == NULL || quant_params == NULL || input_lhs == NULL || input_rhs == NULL || output == NULL ||
        helia_bmm_make_walk(input_lhs_dims, input_rhs_dims, output_dims, &walk) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const cmsis_nn_fc_params *fc = &bmm_params->fc_params;
    const int32_t rows = input_lhs_dims->w;
    const int32_t cols = input_rhs_dims->w;
    const int32_t inner = input_lhs_dims->c;
    int8_t *out = output;
    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        for (int32_t h = 0; h < output_dims->h; ++h)
        {
            const int8_t *lhs = input_lhs + n * walk.lhs_n_step + h * walk.lhs_h_step;
            const int8_t *rhs = input_rhs + n * walk.rhs_n_step + h * walk.rhs_h_step;
            for (int32_t i = 0; i < rows; ++i)
            {
                for (int32_t j = 0; j < cols; ++j)
                {
                    int32_t acc = 0;
                    for (int32_t k = 0; k < inner; ++k)
                    {
                        acc += ((int32_t)lhs[i * inner + k] + fc->input_offset) *
                            ((int32_t)rhs[j * inner + k] + fc->filter_offset);
                    }
                    acc = helia_requantize(acc, quant_params->multiplier, quant_params->shift) + fc->output_offset;
                    *out++ = (int8_t)helia_clamp(acc, fc->activation.min, fc->activation.max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
