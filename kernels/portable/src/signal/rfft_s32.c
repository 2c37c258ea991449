/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_rfft_s32, TFLM's SignalRfft on int32 (kiss fft, FIXED_POINT 32). */

#include <string.h>

#include "helia_signal.h"

typedef int32_t sample_t;
typedef struct
{
    sample_t r;
    sample_t i;
} cpx_t;

/* Sums of int32 samples wrap modulo 2^32 (kiss fft adds them as int), computed unsigned so C99 does
 * not call it undefined. */
static sample_t s_add(sample_t a, sample_t b)
{
    return (sample_t)((uint32_t)a + (uint32_t)b);
}

static sample_t s_sub(sample_t a, sample_t b)
{
    return (sample_t)((uint32_t)a - (uint32_t)b);
}

static sample_t s_neg(sample_t a)
{
    return (sample_t)(0u - (uint32_t)a);
}

/* Q31 rounding of an int64 product sum: add half an LSB, shift right arithmetically, keep 32 bits. */
static sample_t round_q31(int64_t x)
{
    return (sample_t)((x + ((int64_t)1 << 30)) >> 31);
}

static sample_t s_mul(sample_t a, sample_t b)
{
    return round_q31((int64_t)a * b);
}

static sample_t s_half(sample_t x)
{
    return x >> 1;
}

/* HALF_OF(a + b): an int32 sum, so it wraps before it is halved. */
static sample_t s_half_sum(sample_t a, sample_t b)
{
    return s_add(a, b) >> 1;
}

static sample_t s_half_diff(sample_t a, sample_t b)
{
    return s_sub(a, b) >> 1;
}

static cpx_t c_mul(cpx_t a, cpx_t b)
{
    cpx_t c;
    c.r = round_q31((int64_t)a.r * b.r - (int64_t)a.i * b.i);
    c.i = round_q31((int64_t)a.r * b.i + (int64_t)a.i * b.r);
    return c;
}

/* c / p as kiss fft divides: times floor((2^31 - 1) / p), rounded in Q31. */
static cpx_t c_fixdiv(cpx_t c, int32_t p)
{
    const int64_t k = INT32_MAX / p;
    c.r = round_q31(c.r * k);
    c.i = round_q31(c.i * k);
    return c;
}

static cpx_t c_scale(cpx_t c, sample_t s)
{
    c.r = s_mul(c.r, s);
    c.i = s_mul(c.i, s);
    return c;
}

#include "rfft_body.h"

int32_t helia_signal_rfft_s32(const helia_signal_rfft_s32_cfg *cfg, const int32_t *input, int32_t input_length,
                              int32_t *output, int32_t *scratch)
{
    if (cfg == NULL || input == NULL || output == NULL || scratch == NULL || cfg->fft_length < 2 ||
        (cfg->fft_length & 1) != 0 || input_length < 0 || input_length > cfg->fft_length)
    {
        return -1;
    }
    const int32_t n = cfg->fft_length / 2;
    int32_t *padded = scratch;
    int32_t *spectrum = scratch + cfg->fft_length;
    memcpy(padded, input, (size_t)input_length * sizeof(int32_t));
    memset(padded + input_length, 0, (size_t)(cfg->fft_length - input_length) * sizeof(int32_t));
    real_fft(n, cfg->factors, cfg->twiddles, cfg->split_twiddles, padded, spectrum, spectrum + 2 * n, output);
    return 0;
}
