/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_rfft_s16, TFLM's SignalRfft on int16 (kiss fft, FIXED_POINT 16). */

#include <string.h>

#include "helia_signal.h"

typedef int16_t sample_t;
typedef struct
{
    sample_t r;
    sample_t i;
} cpx_t;

/* Sums are computed in int and stored as int16: two's complement wrap-around, as kiss fft's. */
static sample_t s_add(int32_t a, int32_t b)
{
    return (sample_t)(a + b);
}

static sample_t s_sub(int32_t a, int32_t b)
{
    return (sample_t)(a - b);
}

static sample_t s_neg(int32_t a)
{
    return (sample_t)(-a);
}

/* Q15 rounding of a product sum: add half an LSB, shift right arithmetically, keep 16 bits. */
static sample_t round_q15(int32_t x)
{
    return (sample_t)((x + (1 << 14)) >> 15);
}

static sample_t s_mul(sample_t a, sample_t b)
{
    return round_q15((int32_t)a * b);
}

static sample_t s_half(sample_t x)
{
    return (sample_t)(x >> 1);
}

/* HALF_OF(a + b): the sum is an int, so it is halved before any wrap. */
static sample_t s_half_sum(sample_t a, sample_t b)
{
    return (sample_t)(((int32_t)a + b) >> 1);
}

static sample_t s_half_diff(sample_t a, sample_t b)
{
    return (sample_t)(((int32_t)a - b) >> 1);
}

static cpx_t c_mul(cpx_t a, cpx_t b)
{
    cpx_t c;
    c.r = round_q15((int32_t)a.r * b.r - (int32_t)a.i * b.i);
    c.i = round_q15((int32_t)a.r * b.i + (int32_t)a.i * b.r);
    return c;
}

/* c / p as kiss fft divides: times floor(32767 / p), rounded in Q15. */
static cpx_t c_fixdiv(cpx_t c, int32_t p)
{
    const int32_t k = 32767 / p;
    c.r = round_q15(c.r * k);
    c.i = round_q15(c.i * k);
    return c;
}

static cpx_t c_scale(cpx_t c, sample_t s)
{
    c.r = s_mul(c.r, s);
    c.i = s_mul(c.i, s);
    return c;
}

#include "rfft_body.h"

int32_t helia_signal_rfft_s16(const helia_signal_rfft_s16_cfg *cfg, const int16_t *input, int32_t input_length,
                              int16_t *output, int16_t *scratch)
{
    if (cfg == NULL || input == NULL || output == NULL || scratch == NULL || cfg->fft_length < 2 ||
        (cfg->fft_length & 1) != 0 || input_length < 0 || input_length > cfg->fft_length)
    {
        return -1;
    }
    const int32_t n = cfg->fft_length / 2;
    int16_t *padded = scratch;
    int16_t *spectrum = scratch + cfg->fft_length;
    memcpy(padded, input, (size_t)input_length * sizeof(int16_t));
    memset(padded + input_length, 0, (size_t)(cfg->fft_length - input_length) * sizeof(int16_t));
    real_fft(n, cfg->factors, cfg->twiddles, cfg->split_twiddles, padded, spectrum, spectrum + 2 * n, output);
    return 0;
}
