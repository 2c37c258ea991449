/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_filter_bank_log_u32, TFLM's SignalFilterBankLog. */

#include <stddef.h>

#include "helia_signal.h"

/*
 * log2(1 + f) - f in Q16 at f = i / 128, i = 0 .. 128: round(65536 (log2(1 + i / 128) - i / 128)), the
 * correction TFLM's logarithm adds to the linear fraction, interpolated between entries.
 */
static const uint16_t log2_correction[129] = {
    0, 224, 442, 654, 861, 1063, 1259, 1450, 1636, 1817, 1992, 2163,
    2329, 2490, 2646, 2797, 2944, 3087, 3224, 3358, 3487, 3611, 3732, 3848,
    3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934,
    5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507,
    5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633,
    5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370,
    5332, 5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762,
    4697, 4630, 4561, 4490, 4416, 4341, 4264, 4184, 4103, 4020, 3935, 3848,
    3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659,
    2549, 2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224,
    1094, 963, 830, 695, 559, 421, 282, 142, 0,
};

#define SCALE_BITS 16     /* Q16 logarithms */
#define SEGMENT_BITS 7    /* 128 table segments */
#define LN2_Q16 45426u    /* round(65536 ln 2) */

/* Number of significant bits of x > 0. */
static uint32_t bit_length(uint32_t x)
{
    uint32_t bits = 0;
    while (x != 0u)
    {
        x >>= 1;
        ++bits;
    }
    return bits;
}

/* The fraction of log2(x) in Q16, for x with its leading one at bit `whole`. */
static uint32_t log2_fraction(uint32_t x, uint32_t whole)
{
    /* x's bits below the leading one, aligned to Q16 (whole <= 31, so this fits an int32). */
    int32_t frac = (int32_t)(x - (UINT32_C(1) << whole));
    if (whole < SCALE_BITS)
    {
        frac <<= SCALE_BITS - whole;
    }
    else
    {
        frac >>= whole - SCALE_BITS;
    }
    const uint32_t segment = (uint32_t)frac >> (SCALE_BITS - SEGMENT_BITS);
    const int32_t c0 = log2_correction[segment];
    const int32_t c1 = log2_correction[segment + 1];
    const int32_t segment_start = (int32_t)(segment << (SCALE_BITS - SEGMENT_BITS));
    const int32_t interpolated = ((c1 - c0) * (frac - segment_start)) >> SCALE_BITS;
    return (uint32_t)(frac + c0 + interpolated);
}

/* ln(x) * out_scale, x >= 2, in TFLM's fixed point; the last product wraps as uint32. */
static uint32_t scaled_ln(uint32_t x, uint32_t out_scale)
{
    const uint32_t whole = bit_length(x) - 1;
    const uint32_t log2 = (whole << SCALE_BITS) + log2_fraction(x, whole);
    const uint32_t half = 1u << (SCALE_BITS - 1);
    const uint32_t ln = (uint32_t)(((uint64_t)LN2_Q16 * log2 + half) >> SCALE_BITS);
    return (out_scale * ln + half) >> SCALE_BITS;
}

int32_t helia_signal_filter_bank_log_u32(const uint32_t *input, int32_t num_channels, int32_t output_scale,
                                         uint32_t correction_bits, int16_t *output)
{
    if (input == NULL || output == NULL || num_channels < 0 || correction_bits > 31u)
    {
        return -1;
    }
    for (int32_t i = 0; i < num_channels; ++i)
    {
        const uint32_t scaled = input[i] << correction_bits;
        if (scaled > 1u)
        {
            const uint32_t value = scaled_ln(scaled, (uint32_t)output_scale);
            output[i] = (int16_t)(value < 32767u ? value : 32767u);
        }
        else
        {
            output[i] = 0;
        }
    }
    return 0;
}
