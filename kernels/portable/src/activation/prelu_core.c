/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private PRELU helpers (TFLite's quantized rule, the broadcast walk). */

#include "prelu_core.h"
#include "../support/fixed_point.h"

int32_t helia_prelu_value(int32_t x, int32_t alpha, const helia_prelu_params *p)
{
    const int32_t input_value = x + p->input_offset;
    int32_t value;
    if (input_value >= 0)
    {
        value = helia_requantize(input_value, p->mult_identity, p->shift_identity);
    }
    else
    {
        value = helia_requantize(input_value * (alpha + p->alpha_offset), p->mult_alpha, p->shift_alpha);
    }
    return helia_clamp(value + p->output_offset, p->act_min, p->act_max);
}

arm_cmsis_nn_status helia_prelu_check_dims(const cmsis_nn_dims *input_dims,
                                           const cmsis_nn_dims *alpha_dims,
                                           const cmsis_nn_dims *output_dims)
{
    if (input_dims == NULL || alpha_dims == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in[4] = {input_dims->n, input_dims->h, input_dims->w, input_dims->c};
    const int32_t al[4] = {alpha_dims->n, alpha_dims->h, alpha_dims->w, alpha_dims->c};
    const int32_t out[4] = {output_dims->n, output_dims->h, output_dims->w, output_dims->c};
    for (int k = 0; k < 4; ++k)
    {
        if (in[k] != out[k] || (al[k] != in[k] && al[k] != 1))
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

int32_t helia_prelu_alpha_offset(const cmsis_nn_dims *alpha_dims, int32_t n, int32_t h, int32_t w, int32_t c)
{
    const int32_t an = alpha_dims->n == 1 ? 0 : n;
    const int32_t ah = alpha_dims->h == 1 ? 0 : h;
    const int32_t aw = alpha_dims->w == 1 ? 0 : w;
    const int32_t ac = alpha_dims->c == 1 ? 0 : c;
    return ((an * alpha_dims->h + ah) * alpha_dims->w + aw) * alpha_dims->c + ac;
}
