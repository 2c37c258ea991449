/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of TFLM's real FFT (SignalRfft), shared by its int16, int32 and
 * float32 builds (rfft_s16.c, rfft_s32.c, rfft_f32.c).
 *
 * TFLM runs kiss fft v1.3.0: an N-point real FFT is an N/2-point complex FFT of the (even, odd) sample
 * pairs, recombined by a split step. The complex FFT is a mixed-radix decimation in time: each stage
 * of radix p first runs p FFTs of 1/p of the length on every p-th input, then one butterfly over them.
 * The fixed-point builds divide by p at every butterfly (so the FFT is scaled by 1/(N/2)) and by 2 in
 * the split; the order of every operation below is kiss fft's, so rounding and wrap-around agree.
 *
 * The file including this one defines `sample_t`, `cpx_t` { sample_t r, i; } and the arithmetic:
 *   s_add, s_sub, s_neg           sample sums, wrapping like the sample type
 *   s_mul(a, b)                   a * b rounded to a sample (fixed point: Q15 / Q31)
 *   s_half(x)                     x / 2 of a sample (fixed point: x >> 1)
 *   s_half_sum(a, b), s_half_diff (a + b) / 2 and (a - b) / 2 as kiss fft's HALF_OF computes them
 *   c_mul(a, b)                   complex product rounded once per part
 *   c_fixdiv(c, p)                c / p (fixed point only; float: c)
 *   c_scale(c, s)                 c * s, each part rounded
 * Complex values live in plain sample arrays as (re, im) pairs.
 */

#ifndef HELIA_SIGNAL_RFFT_BODY_H
#define HELIA_SIGNAL_RFFT_BODY_H

static cpx_t c_get(const sample_t *pairs, int32_t k)
{
    cpx_t c;
    c.r = pairs[2 * k];
    c.i = pairs[2 * k + 1];
    return c;
}

static void c_put(sample_t *pairs, int32_t k, cpx_t c)
{
    pairs[2 * k] = c.r;
    pairs[2 * k + 1] = c.i;
}

static cpx_t c_add(cpx_t a, cpx_t b)
{
    cpx_t c;
    c.r = s_add(a.r, b.r);
    c.i = s_add(a.i, b.i);
    return c;
}

static cpx_t c_sub(cpx_t a, cpx_t b)
{
    cpx_t c;
    c.r = s_sub(a.r, b.r);
    c.i = s_sub(a.i, b.i);
    return c;
}

/* The FFT's shared state: its length n (N/2), the twiddles exp(-2 pi i k / n) and the generic
 * radix's work pairs. */
typedef struct
{
    int32_t n;
    const sample_t *twiddles;
    sample_t *work;
} fft_t;

static void butterfly_2(const fft_t *f, sample_t *out, int32_t stride, int32_t m)
{
    for (int32_t k = 0; k < m; ++k)
    {
        const cpx_t a = c_fixdiv(c_get(out, k), 2);
        const cpx_t b = c_fixdiv(c_get(out, k + m), 2);
        const cpx_t t = c_mul(b, c_get(f->twiddles, k * stride));
        c_put(out, k + m, c_sub(a, t));
        c_put(out, k, c_add(a, t));
    }
}

static void butterfly_3(const fft_t *f, sample_t *out, int32_t stride, int32_t m)
{
    const sample_t epi3_i = c_get(f->twiddles, stride * m).i; /* sin(-2 pi / 3) */
    for (int32_t k = 0; k < m; ++k)
    {
        cpx_t a0 = c_fixdiv(c_get(out, k), 3);
        const cpx_t a1 = c_fixdiv(c_get(out, k + m), 3);
        const cpx_t a2 = c_fixdiv(c_get(out, k + 2 * m), 3);
        const cpx_t t1 = c_mul(a1, c_get(f->twiddles, k * stride));
        const cpx_t t2 = c_mul(a2, c_get(f->twiddles, 2 * k * stride));
        const cpx_t sum = c_add(t1, t2);
        const cpx_t diff = c_scale(c_sub(t1, t2), epi3_i);
        cpx_t y1;
        y1.r = s_sub(a0.r, s_half(sum.r));
        y1.i = s_sub(a0.i, s_half(sum.i));
        a0 = c_add(a0, sum);
        cpx_t y2;
        y2.r = s_add(y1.r, diff.i);
        y2.i = s_sub(y1.i, diff.r);
        y1.r = s_sub(y1.r, diff.i);
        y1.i = s_add(y1.i, diff.r);
        c_put(out, k, a0);
        c_put(out, k + m, y1);
        c_put(out, k + 2 * m, y2);
    }
}

static void butterfly_4(const fft_t *f, sample_t *out, int32_t stride, int32_t m)
{
    for (int32_t k = 0; k < m; ++k)
    {
        cpx_t a0 = c_fixdiv(c_get(out, k), 4);
        const cpx_t a1 = c_fixdiv(c_get(out, k + m), 4);
        const cpx_t a2 = c_fixdiv(c_get(out, k + 2 * m), 4);
        const cpx_t a3 = c_fixdiv(c_get(out, k + 3 * m), 4);
        const cpx_t t0 = c_mul(a1, c_get(f->twiddles, k * stride));
        const cpx_t t1 = c_mul(a2, c_get(f->twiddles, 2 * k * stride));
        const cpx_t t2 = c_mul(a3, c_get(f->twiddles, 3 * k * stride));
        const cpx_t d = c_sub(a0, t1);
        a0 = c_add(a0, t1);
        const cpx_t s = c_add(t0, t2);
        const cpx_t e = c_sub(t0, t2);
        c_put(out, k + 2 * m, c_sub(a0, s));
        c_put(out, k, c_add(a0, s));
        cpx_t y1, y3; /* forward transform: d -/+ i e */
        y1.r = s_add(d.r, e.i);
        y1.i = s_sub(d.i, e.r);
        y3.r = s_sub(d.r, e.i);
        y3.i = s_add(d.i, e.r);
        c_put(out, k + m, y1);
        c_put(out, k + 3 * m, y3);
    }
}

static void butterfly_5(const fft_t *f, sample_t *out, int32_t stride, int32_t m)
{
    const cpx_t ya = c_get(f->twiddles, stride * m);     /* exp(-2 pi i / 5) */
    const cpx_t yb = c_get(f->twiddles, 2 * stride * m); /* exp(-4 pi i / 5) */
    for (int32_t u = 0; u < m; ++u)
    {
        cpx_t a[5];
        for (int32_t q = 0; q < 5; ++q)
        {
            a[q] = c_fixdiv(c_get(out, u + q * m), 5);
        }
        const cpx_t s0 = a[0];
        const cpx_t s1 = c_mul(a[1], c_get(f->twiddles, u * stride));
        const cpx_t s2 = c_mul(a[2], c_get(f->twiddles, 2 * u * stride));
        const cpx_t s3 = c_mul(a[3], c_get(f->twiddles, 3 * u * stride));
        const cpx_t s4 = c_mul(a[4], c_get(f->twiddles, 4 * u * stride));
        const cpx_t s7 = c_add(s1, s4);
        const cpx_t s10 = c_sub(s1, s4);
        const cpx_t s8 = c_add(s2, s3);
        const cpx_t s9 = c_sub(s2, s3);
        cpx_t y0;
        y0.r = s_add(s0.r, s_add(s7.r, s8.r));
        y0.i = s_add(s0.i, s_add(s7.i, s8.i));
        cpx_t s5, s6, s11, s12;
        s5.r = s_add(s_add(s0.r, s_mul(s7.r, ya.r)), s_mul(s8.r, yb.r));
        s5.i = s_add(s_add(s0.i, s_mul(s7.i, ya.r)), s_mul(s8.i, yb.r));
        s6.r = s_add(s_mul(s10.i, ya.i), s_mul(s9.i, yb.i));
        s6.i = s_sub(s_neg(s_mul(s10.r, ya.i)), s_mul(s9.r, yb.i));
        s11.r = s_add(s_add(s0.r, s_mul(s7.r, yb.r)), s_mul(s8.r, ya.r));
        s11.i = s_add(s_add(s0.i, s_mul(s7.i, yb.r)), s_mul(s8.i, ya.r));
        s12.r = s_add(s_neg(s_mul(s10.i, yb.i)), s_mul(s9.i, ya.i));
        s12.i = s_sub(s_mul(s10.r, yb.i), s_mul(s9.r, ya.i));
        c_put(out, u, y0);
        c_put(out, u + m, c_sub(s5, s6));
        c_put(out, u + 4 * m, c_add(s5, s6));
        c_put(out, u + 2 * m, c_add(s11, s12));
        c_put(out, u + 3 * m, c_sub(s11, s12));
    }
}

/* Any other radix p: a direct p-point DFT per output, twiddle index taken modulo n. */
static void butterfly_generic(const fft_t *f, sample_t *out, int32_t stride, int32_t m, int32_t p)
{
    for (int32_t u = 0; u < m; ++u)
    {
        for (int32_t q = 0; q < p; ++q)
        {
            c_put(f->work, q, c_fixdiv(c_get(out, u + q * m), p));
        }
        for (int32_t q1 = 0, k = u; q1 < p; ++q1, k += m)
        {
            int32_t index = 0;
            cpx_t y = c_get(f->work, 0);
            for (int32_t q = 1; q < p; ++q)
            {
                index += stride * k;
                if (index >= f->n)
                {
                    index -= f->n;
                }
                y = c_add(y, c_mul(c_get(f->work, q), c_get(f->twiddles, index)));
            }
            c_put(out, k, y);
        }
    }
}

/* One stage: out[0 .. p m) = the DFT of in[0], in[stride], ... (pairs), for the stage plan at
 * `factors` (radix p, sub-length m, then the next stage's). */
static void fft_stage(const fft_t *f, sample_t *out, const sample_t *in, int32_t stride, const int32_t *factors)
{
    const int32_t p = factors[0];
    const int32_t m = factors[1];
    if (m == 1)
    {
        for (int32_t q = 0; q < p; ++q)
        {
            c_put(out, q, c_get(in, q * stride));
        }
    }
    else
    {
        for (int32_t q = 0; q < p; ++q)
        {
            fft_stage(f, out + 2 * q * m, in + 2 * q * stride, stride * p, factors + 2);
        }
    }
    switch (p)
    {
    case 2:
        butterfly_2(f, out, stride, m);
        break;
    case 3:
        butterfly_3(f, out, stride, m);
        break;
    case 4:
        butterfly_4(f, out, stride, m);
        break;
    case 5:
        butterfly_5(f, out, stride, m);
        break;
    default:
        butterfly_generic(f, out, stride, m, p);
        break;
    }
}

/*
 * The real FFT of the 2 n samples at `in` (pairs): n + 1 output pairs. `spectrum` receives the complex
 * FFT (n pairs), `work` holds the generic radix's pairs. Bin 0 and bin n come from the DC pair; bins
 * k and n - k from spectrum[k] and conj(spectrum[n - k]), the later write winning at k = n / 2.
 */
static void real_fft(int32_t n, const int32_t *factors, const sample_t *twiddles, const sample_t *split_twiddles,
                     const sample_t *in, sample_t *spectrum, sample_t *work, sample_t *output)
{
    const fft_t f = {n, twiddles, work};
    fft_stage(&f, spectrum, in, 1, factors);

    const cpx_t dc = c_fixdiv(c_get(spectrum, 0), 2);
    cpx_t bin;
    bin.r = s_add(dc.r, dc.i);
    bin.i = 0;
    c_put(output, 0, bin);
    bin.r = s_sub(dc.r, dc.i);
    c_put(output, n, bin);

    for (int32_t k = 1; k <= n / 2; ++k)
    {
        cpx_t mirror = c_get(spectrum, n - k);
        mirror.i = s_neg(mirror.i);
        const cpx_t fk = c_fixdiv(c_get(spectrum, k), 2);
        const cpx_t fnk = c_fixdiv(mirror, 2);
        const cpx_t even = c_add(fk, fnk);
        const cpx_t odd = c_mul(c_sub(fk, fnk), c_get(split_twiddles, k - 1));
        cpx_t lo, hi;
        lo.r = s_half_sum(even.r, odd.r);
        lo.i = s_half_sum(even.i, odd.i);
        hi.r = s_half_diff(even.r, odd.r);
        hi.i = s_half_diff(odd.i, even.i);
        c_put(output, k, lo);
        c_put(output, n - k, hi);
    }
}

#endif /* HELIA_SIGNAL_RFFT_BODY_H */
