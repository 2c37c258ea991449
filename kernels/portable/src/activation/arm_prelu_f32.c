/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_prelu_f32, float32 PRELU with alpha broadcast onto the input (NHWC). */

#include "../support/flt_support.h"
#include "prelu_core.h"

#if ARM_NN_ENABLE_F32

/* out = x >= 0 ? x : x * alpha (one multiplication, as TFLite). ARM_CMSIS_NN_ARG_ERROR for NULL pointers,
 * output dims that differ from the input's, or alpha dims that do not broadcast onto the input. */
arm_cmsis_nn_status arm_prelu_f32(const cmsis_nn_dims *input_dims,
                                  const float32_t *input,
                                  const cmsis_nn_dims *alpha_dims,
                                  const float32_t *alpha,
                                  const cmsis_nn_dims *output_dims,
                                  float32_t *output)
{
    if (input == NULL || alpha == NULL || output == NULL ||
        helia_prelu_check_dims(input_dims, alpha_dims, output_dims) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int32_t i = 0;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        for (int32_t h = 0; h < input_dims->h; ++h)
        {
            for (int32_t w = 0; w < input_dims->w; ++w)
            {
                for (int32_t c = 0; c < input_dims->c; ++c)
                {
                    const float32_t x = input[i];
                    const float32_t a = alpha[helia_prelu_alpha_offset(alpha_dims, n, h, w, c)];
                    output[i] = (x >= 0.0f) ? x : x * a;
                    ++i;
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */
