/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_prelu_s8, int8 PRELU with alpha broadcast onto the input (NHWC). */

#include "prelu_core.h"

/* TFLite's quantized PRELU: offsets are added (minus the zero points, plus the output's), the identity
 * multiplier for inputs >= 0, the alpha one for the product with alpha. ARM_CMSIS_NN_ARG_ERROR when the
 * output dims differ from the input's or alpha does not broadcast onto the input. */
arm_cmsis_nn_status arm_prelu_s8(const cmsis_nn_dims *input_dims,
                                 const int8_t *input,
                                 const cmsis_nn_dims *alpha_dims,
                                 const int8_t *alpha,
                                 const int32_t input_offset,
                                 const int32_t alpha_offset,
                                 const int32_t output_offset,
                                 const int32_t output_multiplier_identity,
                                 const int32_t output_shift_identity,
                                 const int32_t output_multiplier_alpha,
                                 const int32_t output_shift_alpha,
                                 const cmsis_nn_dims *output_dims,
                                 int8_t *output)
{
    if (input == NULL || alpha == NULL || output == NULL ||
        helia_prelu_check_dims(input_dims, alpha_dims, output_dims) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const helia_prelu_params p = {input_offset,
                                  alpha_offset,
                                  output_offset,
                                  output_multiplier_identity,
                                  output_shift_identity,
                                  output_multiplier_alpha,
                                  output_shift_alpha,
                                  INT8_MIN,
                                  INT8_MAX};
    int32_t i = 0;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        for (int32_t h = 0; h < input_dims->h; ++h)
        {
            for (int32_t w = 0; w < input_dims->w; ++w)
            {
                for (int32_t c = 0; c < input_dims->c; ++c)
                {
                    const int32_t a = alpha[helia_prelu_alpha_offset(alpha_dims, n, h, w, c)];
                    output[i] = (int8_t)helia_prelu_value(input[i], a, &p);
                    ++i;
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
