/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: MEAN over any subset of the N, H, W, C axes, for int8 and int16 data. */

#include "mean_core.h"

#include "../support/fixed_point.h"

arm_cmsis_nn_status helia_mean(const void *input_data,
                               int32_t bits,
                               const cmsis_nn_dims *input_dims,
                               int32_t input_offset,
                               const cmsis_nn_dims *axis_dims,
                               void *output_data,
                               const cmsis_nn_dims *output_dims,
                               int32_t out_offset,
                               int32_t out_mult,
                               int32_t out_shift)
{
    if (input_data == NULL || input_dims == NULL || axis_dims == NULL || output_data == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t lowest = -(1 << (bits - 1));
    const int32_t highest = (1 << (bits - 1)) - 1;
    const int8_t *in8 = (const int8_t *)input_data;
    const int16_t *in16 = (const int16_t *)input_data;

    /* How far each axis is summed over: the whole axis when reduced, one position otherwise. */
    const int32_t span_n = axis_dims->n ? input_dims->n : 1;
    const int32_t span_h = axis_dims->h ? input_dims->h : 1;
    const int32_t span_w = axis_dims->w ? input_dims->w : 1;
    const int32_t span_c = axis_dims->c ? input_dims->c : 1;
    const int32_t count = span_n * span_h * span_w * span_c;

    size_t out_index = 0;
    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        for (int32_t h = 0; h < output_dims->h; ++h)
        {
            for (int32_t w = 0; w < output_dims->w; ++w)
            {
                for (int32_t c = 0; c < output_dims->c; ++c)
                {
                    /* Summed modulo 2^32 (as ns-cmsis-nn's int32 sum wraps) so huge reductions stay defined. */
                    uint32_t acc = (uint32_t)helia_mul_wrapping(count, input_offset);
                    for (int32_t dn = 0; dn < span_n; ++dn)
                    {
                        for (int32_t dh = 0; dh < span_h; ++dh)
                        {
                            for (int32_t dw = 0; dw < span_w; ++dw)
                            {
                                for (int32_t dc = 0; dc < span_c; ++dc)
                                {
                                    const size_t index =
                                        ((((size_t)(n + dn) * input_dims->h + (h + dh)) * input_dims->w + (w + dw)) *
                                         input_dims->c) +
                                        (size_t)(c + dc);
                                    acc += (uint32_t)(int32_t)(bits == 16 ? in16[index] : in8[index]);
                                }
                            }
                        }
                    }
                    const int32_t mean = helia_requantize(helia_wrap_s32(acc), out_mult, out_shift) + out_offset;
                    const int32_t scaled = helia_clamp(mean, lowest, highest);
                    if (bits == 16)
                    {
                        ((int16_t *)output_data)[out_index++] = (int16_t)scaled;
                    }
                    else
                    {
                        ((int8_t *)output_data)[out_index++] = (int8_t)scaled;
                    }
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
