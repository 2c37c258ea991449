/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_rfft_f32, TFLM's SignalRfft on float32 (kiss fft, float). */

#include <string.h>

#include "helia_signal.h"

typedef float sample_t;
typedef struct
{
    sample_t r;
    sample_t i;
} cpx_t;

/* Single precision throughout, one rounding per operation in kiss fft's order (build without
 * floating-point contraction, -ffp-contract=off, to keep it so). */
static sample_t s_add(sample_t a, sample_t b)
{
    return a + b;
}

static sample_t s_sub(sample_t a, sample_t b)
{
    return a - b;
}

static sample_t s_neg(sample_t a)
{
    return -a;
}

static sample_t s_mul(sample_t a, sample_t b)
{
    return a * b;
}

static sample_t s_half(sample_t x)
{
    return x * 0.5f;
}

static sample_t s_half_sum(sample_t a, sample_t b)
{
    return (a + b) * 0.5f;
}

static sample_t s_half_diff(sample_t a, sample_t b)
{
    return (a - b) * 0.5f;
}

static cpx_t c_mul(cpx_t a, cpx_t b)
{
    const sample_t rr = a.r * b.r;
    const sample_t ii = a.i * b.i;
    const sample_t ri = a.r * b.i;
    const sample_t ir = a.i * b.r;
    cpx_t c;
    c.r = rr - ii;
    c.i = ri + ir;
    return c;
}

/* The float build does not scale its stages. */
static cpx_t c_fixdiv(cpx_t c, int32_t p)
{
    (void)p;
    return c;
}

static cpx_t c_scale(cpx_t c, sample_t s)
{
    c.r = c.r * s;
    c.i = c.i * s;
    return c;
}

#include "rfft_body.h"

int32_t helia_signal_rfft_f32(const helia_signal_rfft_f32_cfg *cfg, const float *input, int32_t input_length,
                              float *output, float *scratch)
{
    if (cfg == NULL || input == NULL || output == NULL || scratch == NULL || cfg->fft_length < 2 ||
        (cfg->fft_length & 1) != 0 || input_length < 0 || input_length > cfg->fft_length)
    {
        return -1;
    }
    const int32_t n = cfg->fft_length / 2;
    float *padded = scratch;
    float *spectrum = scratch + cfg->fft_length;
    memcpy(padded, input, (size_t)input_length * sizeof(float));
    memset(padded + input_length, 0, (size_t)(cfg->fft_length - input_length) * sizeof(float));
    real_fft(n, cfg->factors, cfg->twiddles, cfg->split_twiddles, padded, spectrum, spectrum + 2 * n, output);
    return 0;
}
