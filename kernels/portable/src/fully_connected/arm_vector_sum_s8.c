/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_vector_sum_s8, per-row weight sums used to fold in the input offset. */

#include "arm_nnfunctions.h"

/* vector_sum_buf[r] = bias[r] + lhs_offset * (sum_c vector_data[r, c] + vector_cols * rhs_offset). */
arm_cmsis_nn_status arm_vector_sum_s8(int32_t *vector_sum_buf,
                                      const int32_t vector_cols,
                                      const int32_t vector_rows,
                                      const int8_t *vector_data,
                                      const int32_t lhs_offset,
                                      const int32_t rhs_offset,
                                      const int32_t *bias_data)
{
    for (int32_t r = 0; r < vector_rows; ++r)
    {
        const int8_t *row = vector_data + (size_t)r * vector_cols;
        int32_t row_sum = 0;
        for (int32_t c = 0; c < vector_cols; ++c)
        {
            row_sum += row[c];
        }
        row_sum += vector_cols * rhs_offset;
        vector_sum_buf[r] = (bias_data != NULL ? bias_data[r] : 0) + lhs_offset * row_sum;
    }
    return ARM_CMSIS_NN_SUCCESS;
}
