/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_convolve_weight_sum, per-channel tap sums for Helium-style kernels. */

#include "arm_nnfunctions.h"

/*
 * vector_sum_buf[oc] = bias[oc] + lhs_offset * sum over the kh * kw taps of channel oc
 * (filter layout [1, kh, kw, output channels]). Unused by the portable kernels; provided so code
 * generated for a Helium target links and runs against this library too.
 */
arm_cmsis_nn_status arm_depthwise_convolve_weight_sum(int32_t *vector_sum_buf,
                                                      int8_t *scratch_buf,
                                                      const int8_t *rhs,
                                                      const cmsis_nn_dw_conv_params *dw_conv_params,
                                                      const cmsis_nn_dims *input_dims,
                                                      const cmsis_nn_dims *filter_dims,
                                                      const cmsis_nn_dims *output_dims,
                                                      const int32_t lhs_offset,
                                                      const int32_t *bias_data)
{
    (void)scratch_buf;
    (void)dw_conv_params;
    (void)input_dims;
    if (vector_sum_buf == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t channels = output_dims->c;
    const int32_t taps = filter_dims->w * filter_dims->h;
    for (int32_t oc = 0; oc < channels; ++oc)
    {
        int32_t tap_sum = 0;
        for (int32_t t = 0; t < taps; ++t)
        {
            tap_sum += rhs[(size_t)t * channels + oc];
        }
        vector_sum_buf[oc] = (bias_data != NULL ? bias_data[oc] : 0) + lhs_offset * tap_sum;
    }
    return ARM_CMSIS_NN_SUCCESS;
}
