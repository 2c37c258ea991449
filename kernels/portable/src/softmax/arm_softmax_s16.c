/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_softmax_s16, int16 SOFTMAX with two interpolated lookup tables. */

/*
 * Per row, with d = x - max(row) (so d <= 0):
 *   s     = requantize(d, mult, shift), so that s = -65535 stands for -10.0
 *   e(d)  = exp LUT at s + 32767 (the table spans [-10, 0] over [-32768, 32767]), Q0.15
 *   sum   = sum of e(d); its leading-zero count h normalises it into [2^16, 2^17] as
 *           round(sum * 2^(h - 1) / 2^14), the 1 / (1 + x) LUT then gives 1 / sum, Q0.15
 *   out   = round(e(d) * (1 / sum) / 2^(31 - h)), Q0.15.
 * Intermediate results are 16-bit values exactly as in ns-cmsis-nn (wrapping where it wraps),
 * so the outputs match bit for bit even for tables unlike TFLite's.
 */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/* Interpolated lookup in a 513-entry table: the high 9 bits of the biased input pick the entry,
 * the low 7 bits interpolate towards the next one. */
static int16_t interpolate(const int16_t *lut, int16_t x)
{
    const int32_t index = 256 + (x >> 7);
    const int32_t offset = x & 0x7f;
    const int16_t base = lut[index];
    const int16_t slope = helia_wrap_s16((int32_t)lut[index + 1] - base);
    const int16_t delta = helia_wrap_s16((slope * offset + 64) >> 7);
    return helia_wrap_s16((int32_t)base + delta);
}

arm_cmsis_nn_status arm_softmax_s16(const int16_t *input,
                                    const int32_t num_rows,
                                    const int32_t row_size,
                                    const int32_t mult,
                                    const int32_t shift,
                                    const cmsis_nn_softmax_lut_s16 *softmax_params,
                                    int16_t *output)
{
    if (softmax_params->exp_lut == NULL || softmax_params->one_by_one_lut == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t r = 0; r < num_rows; ++r)
    {
        const int16_t *in = input + (size_t)r * row_size;
        int16_t *out = output + (size_t)r * row_size;

        int32_t max = in[0];
        for (int32_t i = 1; i < row_size; ++i)
        {
            max = in[i] > max ? in[i] : max;
        }

        /* The exps are kept in the output row until the reciprocal is known. */
        int32_t sum = 0;
        for (int32_t i = 0; i < row_size; ++i)
        {
            const int32_t scaled = helia_requantize(in[i] - max, mult, shift);
            const int32_t centred = helia_clamp(helia_add_wrapping(scaled, INT16_MAX), INT16_MIN, INT16_MAX);
            out[i] = interpolate(softmax_params->exp_lut, (int16_t)centred);
            sum += out[i];
        }

        /* sum normalised to [2^16, 2^17], minus 2^16 for "x" and 2^15 to centre: 1 / (1 + x) lookup.
         * A sum of 2^31 - 2^13 or more normalises to 2^17 and wraps to the table's low end, as in
         * ns-cmsis-nn (TFLite saturates instead). Shift counts are kept in range for sums that
         * non-negative exp tables never produce (negative, or below 2). */
        const int32_t headroom = helia_count_leading_zeros((uint32_t)sum);
        const int32_t up = headroom > 0 ? headroom - 1 : 0;
        const int64_t normalised = (((int64_t)sum << up) + (1 << 13)) >> 14;
        const int16_t centred_sum = helia_wrap_s16((int32_t)(normalised - 98304));
        const int32_t reciprocal = interpolate(softmax_params->one_by_one_lut, centred_sum);

        const int32_t right_shift = headroom < 30 ? 30 - headroom : 0;
        for (int32_t i = 0; i < row_size; ++i)
        {
            const int32_t product = (out[i] * reciprocal) >> right_shift;
            out[i] = helia_wrap_s16((product + 1) >> 1);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
