/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_pcan_u32, TFLM's SignalPCAN (per-channel amplitude normalization). */

#include <stddef.h>

#include "helia_signal.h"

/* Fraction bits of the signal-to-noise ratio and of the output. */
#define SNR_BITS 12
#define OUTPUT_BITS 6

/* Number of significant bits of x > 0 (1 .. 32). */
static int32_t bit_length(uint32_t x)
{
    int32_t bits = 0;
    while (x != 0u)
    {
        x >>= 1;
        ++bits;
    }
    return bits;
}

/*
 * The gain for a noise level x: lut[x] for x <= 2; above, a quadratic in the 10 bits below x's leading
 * one, with the three coefficients of x's octave (lut[4 b - 6 ..], b = bit length of x), in Q15. The
 * result is an int16 the caller widens with its sign, as TFLM does.
 */
static int16_t gain_of(uint32_t x, const int16_t *lut)
{
    if (x <= 2u)
    {
        return lut[x];
    }
    const int32_t octave = bit_length(x);
    const int16_t *c = lut + 4 * octave - 6;
    const uint32_t aligned = octave < 11 ? x << (11 - octave) : x >> (octave - 11);
    const int32_t frac = (int32_t)(aligned & 0x3FFu);
    int32_t result = ((int32_t)c[2] * frac) >> 5;
    result += (int32_t)c[1] * 32; /* lut[1] << 5 */
    result *= frac;               /* |result| < 2^31 for any int16 coefficients */
    result = (result + (1 << 14)) >> 15;
    result += c[0];
    return (int16_t)result;
}

/* x^2 / 4 below 2, x - 1 from 2 on; x has SNR_BITS fraction bits, the result OUTPUT_BITS. */
static uint32_t shrink(uint32_t x)
{
    if (x < (2u << SNR_BITS))
    {
        return (x * x) >> (2 + 2 * SNR_BITS - OUTPUT_BITS);
    }
    return (x >> (SNR_BITS - OUTPUT_BITS)) - (1u << OUTPUT_BITS);
}

int32_t helia_signal_pcan_u32(const uint32_t *input, const uint32_t *noise_estimate, const int16_t *gain_lut,
                              int32_t snr_shift, uint32_t *output, int32_t num_channels)
{
    if (input == NULL || noise_estimate == NULL || gain_lut == NULL || output == NULL || snr_shift < 0 ||
        snr_shift > 63 || num_channels < 0)
    {
        return -1;
    }
    for (int32_t i = 0; i < num_channels; ++i)
    {
        const uint32_t gain = (uint32_t)(int32_t)gain_of(noise_estimate[i], gain_lut);
        const uint32_t snr = (uint32_t)(((uint64_t)input[i] * gain) >> snr_shift);
        output[i] = shrink(snr);
    }
    return 0;
}
