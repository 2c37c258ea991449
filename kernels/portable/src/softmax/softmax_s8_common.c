/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: int8-input SOFTMAX with TFLite's fixed-point exp and reciprocal. */

/*
 * Per row, with d = x - max(row) (so d <= 0):
 *   e(d)  = exp(beta * d) in Q0.31, computed from d * 2^shift * mult (a Q5.26 value)
 *   sum   = sum of e(d) / 2^12 over the row (Q12.19, 12 accumulation bits)
 *   out   = e(d) / sum as a probability with output_bits bits, offset by -2^(output_bits - 1).
 * Elements with d < diff_min underflow to exactly 0 probability and are left out of the sum.
 */

#include "softmax_s8_common.h"

#include "../support/fixed_point.h"

enum
{
    ACCUMULATION_BITS = 12
};

static int32_t exp_of_scaled_diff(int32_t diff, int32_t mult, int32_t shift)
{
    const int32_t diff_q5_26 = helia_sat_rounding_doubling_high_mul(helia_shift_left(diff, shift), mult);
    return helia_exp_on_negative_values(diff_q5_26);
}

void helia_softmax_s8_rows(const int8_t *input,
                           int32_t num_rows,
                           int32_t row_size,
                           int32_t mult,
                           int32_t shift,
                           int32_t diff_min,
                           int32_t output_bits,
                           void *output)
{
    const int32_t lowest = -(1 << (output_bits - 1));
    const int32_t highest = (1 << (output_bits - 1)) - 1;
    for (int32_t r = 0; r < num_rows; ++r)
    {
        const int8_t *in = input + (size_t)r * row_size;
        const size_t row_start = (size_t)r * row_size;

        int32_t max = in[0];
        for (int32_t i = 1; i < row_size; ++i)
        {
            max = in[i] > max ? in[i] : max;
        }

        int32_t sum = 0;
        for (int32_t i = 0; i < row_size; ++i)
        {
            const int32_t diff = in[i] - max;
            if (diff >= diff_min)
            {
                sum += helia_rounding_divide_by_pot(exp_of_scaled_diff(diff, mult, shift), ACCUMULATION_BITS);
            }
        }

        /* 1/sum: normalise sum to [1, 2) * 2^31 / 2, take 1/(1+x), and remember the exponent. */
        const int32_t headroom = helia_count_leading_zeros((uint32_t)sum);
        const uint32_t normalised = sum > 0 ? (uint32_t)sum << headroom : 0u;
        const int32_t reciprocal = helia_one_over_one_plus_x((int32_t)(normalised - 0x80000000u));
        const int32_t bits_over_unit = ACCUMULATION_BITS - headroom + 31 - output_bits;

        for (int32_t i = 0; i < row_size; ++i)
        {
            const int32_t diff = in[i] - max;
            int32_t value = lowest;
            if (diff >= diff_min)
            {
                const int32_t probability = helia_rounding_divide_by_pot(
                    helia_sat_rounding_doubling_high_mul(reciprocal, exp_of_scaled_diff(diff, mult, shift)),
                    bits_over_unit);
                value = helia_clamp(probability + lowest, lowest, highest);
            }
            if (output_bits == 16)
            {
                ((int16_t *)output)[row_start + (size_t)i] = (int16_t)value;
            }
            else
            {
                ((int8_t *)output)[row_start + (size_t)i] = (int8_t)value;
            }
        }
    }
}
