/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_vec_mat_mul_result_acc_s8_s16, one LSTM gate's matrix product. */

#include "arm_nnfunctions.h"
#include "../support/fixed_point.h"

/*
 * For each batch b and row r: acc = effective_bias[r] + sum_c rhs[r][c] * lhs[b][c] (the input
 * offset is already in the bias), requantized to int16 and added to dst with saturation. The lhs
 * rows lie batch_offset rows apart; dst is contiguous.
 */
arm_cmsis_nn_status arm_nn_vec_mat_mul_result_acc_s8_s16(const int8_t *lhs,
                                                         const int8_t *rhs,
                                                         const int32_t *effective_bias,
                                                         int16_t *dst,
                                                         const int32_t dst_multiplier,
                                                         const int32_t dst_shift,
                                                         const int32_t rhs_cols,
                                                         const int32_t rhs_rows,
                                                         const int32_t batches,
                                                         const int32_t batch_offset)
{
    for (int32_t b = 0; b < batches; ++b)
    {
        const int8_t *x = lhs + b * batch_offset * rhs_cols;
        int16_t *out = dst + b * rhs_rows;
        for (int32_t r = 0; r < rhs_rows; ++r)
        {
            const int8_t *w = rhs + r * rhs_cols;
            int32_t acc = effective_bias[r];
            for (int32_t c = 0; c < rhs_cols; ++c)
            {
                acc += (int32_t)w[c] * (int32_t)x[c];
            }
            const int32_t sum = helia_requantize(acc, dst_multiplier, dst_shift) + out[r];
            out[r] = (int16_t)helia_clamp(sum, INT16_MIN, INT16_MAX);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
