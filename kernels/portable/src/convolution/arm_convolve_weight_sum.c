/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_weight_sum, per-channel filter sums for Helium-style kernels. */

#include "arm_nnfunctions.h"

/*
 * vector_sum_buf[oc] = bias[oc] + lhs_offset * sum of filter oc's kh * kw * kc weights.
 * The portable kernels do not use these sums; the function is here so code generated for a
 * Helium target (which precomputes them at init) links and runs against this library too.
 */
arm_cmsis_nn_status arm_convolve_weight_sum(int32_t *vector_sum_buf,
                                            const int8_t *rhs,
                                            const cmsis_nn_dims *input_dims,
                                            const cmsis_nn_dims *filter_dims,
                                            const cmsis_nn_dims *output_dims,
                                            const int32_t lhs_offset,
                                            const int32_t *bias_data)
{
    (void)input_dims;
    if (vector_sum_buf == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t filter_size = filter_dims->w * filter_dims->h * filter_dims->c;
    return arm_vector_sum_s8(vector_sum_buf, filter_size, output_dims->c, rhs, lhs_offset, 0, bias_data);
}
