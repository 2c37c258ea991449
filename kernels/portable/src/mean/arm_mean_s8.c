/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_mean_s8, MEAN over any subset of the N, H, W, C axes. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/*
 * out[o] = clamp(out_offset + requantize(count * input_offset + sum of in over the reduced axes,
 *                out_mult, out_shift), -128, 127)
 * where count is the number of elements summed; the caller folds 1/count into out_mult/out_shift.
 * Reduced axes have size 1 in output_dims; the others match the input.
 */
arm_cmsis_nn_status arm_mean_s8(const int8_t *input_data,
                                const cmsis_nn_dims *input_dims,
                                const int32_t input_offset,
                                const cmsis_nn_dims *axis_dims,
                                int8_t *output_data,
                                const cmsis_nn_dims *output_dims,
                                const int32_t out_offset,
                                const int32_t out_mult,
                                const int32_t out_shift)
{
    if (input_data == NULL || input_dims == NULL || axis_dims == NULL || output_data == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    /* How far each axis is summed over: the whole axis when reduced, one position otherwise. */
    const int32_t span_n = axis_dims->n ? input_dims->n : 1;
    const int32_t span_h = axis_dims->h ? input_dims->h : 1;
    const int32_t span_w = axis_dims->w ? input_dims->w : 1;
    const int32_t span_c = axis_dims->c ? input_dims->c : 1;
    const int32_t count = span_n * span_h * span_w * span_c;

    int8_t *out = output_data;
    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        for (int32_t h = 0; h < output_dims->h; ++h)
        {
            for (int32_t w = 0; w < output_dims->w; ++w)
            {
                for (int32_t c = 0; c < output_dims->c; ++c)
                {
                    int32_t acc = count * input_offset;
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
                                    acc += input_data[index];
                                }
                            }
                        }
                    }
                    const int32_t scaled = helia_requantize(acc, out_mult, out_shift) + out_offset;
                    *out++ = (int8_t)helia_clamp(scaled, INT8_MIN, INT8_MAX);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
