/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for helia_signal_rfft_*, _filter_bank_spectral_subtraction_u32, _pcan_u32 and
 * _filter_bank_log_u32: runs the calls read from stdin, prints every output. */

/*
 * One record per line of input, whitespace-separated integers after a keyword (arrays are a count, then
 * the values; float values are their bit patterns):
 *
 *   rfft <type> <fft_length> <factors> <twiddles> <split_twiddles> <frames> <input_length> <inputs>
 *        type 16, 32 or 0 (float32); the frames' inputs one after the other. Prints per frame
 *        "<status> <count> <outputs...>" (the outputs as the kernel left them).
 *   subtract <num_channels> <smoothing> <one_minus_smoothing> <alternate_smoothing>
 *        <alternate_one_minus_smoothing> <min_signal_remaining> <smoothing_bits>
 *        <spectral_subtraction_bits> <clamping> <frames> <inputs>
 *        Prints per frame "<status> <count> <outputs...>" then the same for the noise estimate; the state starts
 *        as junk set to zeros (a reset) and carries from frame to frame.
 *   pcan <snr_shift> <input> <noise_estimate> <gain_lut>      prints "<status> <count> <outputs...>"
 *   log <output_scale> <correction_bits> <input>              the same
 *
 * Scratch and outputs start as junk, with one guard element past their end that must survive.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helia_signal.h"

#define DRIVER_NAME "signal_b_driver"
#include "driver_io.h"

/* `count` values read from stdin, each kept in 64 bits (at least one element allocated). */
static long long *rd_array(int32_t *count)
{
    *count = read_int32();
    long long *a = malloc((size_t)(*count > 0 ? *count : 1) * sizeof(long long));
    if (a == NULL)
    {
        fail("out of memory");
    }
    for (int32_t i = 0; i < *count; ++i)
    {
        a[i] = read_integer();
    }
    return a;
}

static void *alloc_junk(size_t bytes)
{
    unsigned char *p = malloc(bytes + 8);
    if (p == NULL)
    {
        fail("out of memory");
    }
    memset(p, 0xA5, bytes + 8);
    return p;
}

static void check_guard(const void *p, size_t bytes)
{
    const unsigned char *guard = (const unsigned char *)p + bytes;
    for (int i = 0; i < 8; ++i)
    {
        if (guard[i] != 0xA5)
        {
            fail("a kernel wrote past its buffer");
        }
    }
}

static int32_t *to_i32(const long long *a, int32_t n)
{
    int32_t *out = alloc_junk((size_t)n * sizeof(int32_t));
    for (int32_t i = 0; i < n; ++i)
    {
        out[i] = (int32_t)a[i];
    }
    return out;
}

static uint32_t *to_u32(const long long *a, int32_t n)
{
    uint32_t *out = alloc_junk((size_t)n * sizeof(uint32_t));
    for (int32_t i = 0; i < n; ++i)
    {
        out[i] = (uint32_t)a[i];
    }
    return out;
}

static int16_t *to_i16(const long long *a, int32_t n)
{
    int16_t *out = alloc_junk((size_t)n * sizeof(int16_t));
    for (int32_t i = 0; i < n; ++i)
    {
        out[i] = (int16_t)a[i];
    }
    return out;
}

static float *to_f32(const long long *a, int32_t n)
{
    float *out = alloc_junk((size_t)n * sizeof(float));
    for (int32_t i = 0; i < n; ++i)
    {
        const int32_t bits = (int32_t)a[i];
        memcpy(&out[i], &bits, sizeof bits);
    }
    return out;
}

static void print_i16(int32_t status, const int16_t *v, int32_t n)
{
    printf("%ld %ld", (long)status, (long)n);
    for (int32_t i = 0; i < n; ++i)
    {
        printf(" %d", v[i]);
    }
    printf("\n");
}

static void print_i32(int32_t status, const int32_t *v, int32_t n)
{
    printf("%ld %ld", (long)status, (long)n);
    for (int32_t i = 0; i < n; ++i)
    {
        printf(" %ld", (long)v[i]);
    }
    printf("\n");
}

static void print_u32(int32_t status, const uint32_t *v, int32_t n)
{
    printf("%ld %ld", (long)status, (long)n);
    for (int32_t i = 0; i < n; ++i)
    {
        printf(" %lu", (unsigned long)v[i]);
    }
    printf("\n");
}

static void run_rfft(void)
{
    const int32_t type = read_int32();
    const int32_t fft_length = read_int32();
    int32_t n_factors, n_tw, n_split, n_in;
    long long *factors = rd_array(&n_factors), *tw = rd_array(&n_tw), *split = rd_array(&n_split);
    const int32_t frames = read_int32();
    const int32_t input_length = read_int32();
    long long *in = rd_array(&n_in);
    if (n_in != frames * input_length || n_tw != 2 * (fft_length / 2) || n_split != 2 * (fft_length / 4))
    {
        fail("rfft: array sizes do not match");
    }
    int32_t *plan = to_i32(factors, n_factors);
    const int32_t out_count = fft_length + 2;
    /* Exactly the scratch helia_signal.h asks for, 2 N + 2 P (P: the plan's largest radix other than 2 to
     * 5, else 0; N = 2 has the radix-1 plan of one point), so the guard after it sees any write past it.
     * The plan holds (radix, remaining) pairs. */
    int32_t generic_radix = 0;
    for (int32_t i = 0; i + 1 < n_factors; i += 2)
    {
        if ((plan[i] < 2 || plan[i] > 5) && plan[i] > generic_radix)
        {
            generic_radix = plan[i];
        }
    }
    const int32_t scratch_count = fft_length > 0 ? 2 * fft_length + 2 * generic_radix : 1;
    for (int32_t f = 0; f < frames; ++f)
    {
        const long long *frame = in + (size_t)f * input_length;
        if (type == 16)
        {
            const helia_signal_rfft_s16_cfg cfg = {fft_length, plan, to_i16(tw, n_tw), to_i16(split, n_split)};
            int16_t *x = to_i16(frame, input_length), *out = alloc_junk((size_t)out_count * 2);
            int16_t *scratch = alloc_junk((size_t)scratch_count * 2);
            const int32_t status = helia_signal_rfft_s16(&cfg, x, input_length, out, scratch);
            check_guard(out, (size_t)out_count * 2);
            check_guard(scratch, (size_t)scratch_count * 2);
            print_i16(status, out, out_count);
            free((void *)cfg.twiddles);
            free((void *)cfg.split_twiddles);
            free(x);
            free(out);
            free(scratch);
        }
        else if (type == 32)
        {
            const helia_signal_rfft_s32_cfg cfg = {fft_length, plan, to_i32(tw, n_tw), to_i32(split, n_split)};
            int32_t *x = to_i32(frame, input_length), *out = alloc_junk((size_t)out_count * 4);
            int32_t *scratch = alloc_junk((size_t)scratch_count * 4);
            const int32_t status = helia_signal_rfft_s32(&cfg, x, input_length, out, scratch);
            check_guard(out, (size_t)out_count * 4);
            check_guard(scratch, (size_t)scratch_count * 4);
            print_i32(status, out, out_count);
            free((void *)cfg.twiddles);
            free((void *)cfg.split_twiddles);
            free(x);
            free(out);
            free(scratch);
        }
        else
        {
            const helia_signal_rfft_f32_cfg cfg = {fft_length, plan, to_f32(tw, n_tw), to_f32(split, n_split)};
            float *x = to_f32(frame, input_length), *out = alloc_junk((size_t)out_count * 4);
            float *scratch = alloc_junk((size_t)scratch_count * 4);
            const int32_t status = helia_signal_rfft_f32(&cfg, x, input_length, out, scratch);
            check_guard(out, (size_t)out_count * 4);
            check_guard(scratch, (size_t)scratch_count * 4);
            printf("%ld %ld", (long)status, (long)out_count);
            for (int32_t i = 0; i < out_count; ++i)
            {
                int32_t bits;
                memcpy(&bits, &out[i], sizeof bits);
                printf(" %ld", (long)bits);
            }
            printf("\n");
            free((void *)cfg.twiddles);
            free((void *)cfg.split_twiddles);
            free(x);
            free(out);
            free(scratch);
        }
    }
    free(plan);
    free(factors);
    free(tw);
    free(split);
    free(in);
}

static void run_subtract(void)
{
    helia_signal_spectral_subtraction_cfg cfg;
    cfg.num_channels = read_int32();
    cfg.smoothing = (uint32_t)read_integer();
    cfg.one_minus_smoothing = (uint32_t)read_integer();
    cfg.alternate_smoothing = (uint32_t)read_integer();
    cfg.alternate_one_minus_smoothing = (uint32_t)read_integer();
    cfg.min_signal_remaining = (uint32_t)read_integer();
    cfg.smoothing_bits = (uint32_t)read_integer();
    cfg.spectral_subtraction_bits = (uint32_t)read_integer();
    cfg.clamping = read_int32();
    const int32_t frames = read_int32();
    int32_t n_in;
    long long *in = rd_array(&n_in);
    const int32_t c = cfg.num_channels;
    if (n_in != frames * c)
    {
        fail("subtract: array sizes do not match");
    }
    const size_t bytes = (size_t)c * sizeof(uint32_t);
    uint32_t *state = alloc_junk(bytes);
    memset(state, 0, bytes); /* what <prefix>_model_reset writes */
    for (int32_t f = 0; f < frames; ++f)
    {
        uint32_t *x = to_u32(in + (size_t)f * c, c), *out = alloc_junk(bytes), *noise = alloc_junk(bytes);
        const int32_t status = helia_signal_filter_bank_spectral_subtraction_u32(&cfg, x, out, state, noise);
        check_guard(out, bytes);
        check_guard(noise, bytes);
        check_guard(state, bytes);
        print_u32(status, out, c);
        print_u32(status, noise, c);
        free(x);
        free(out);
        free(noise);
    }
    free(state);
    free(in);
}

static void run_pcan(void)
{
    const int32_t snr_shift = read_int32();
    int32_t n_in, n_noise, n_lut;
    long long *in = rd_array(&n_in), *noise = rd_array(&n_noise), *lut = rd_array(&n_lut);
    if (n_noise != n_in)
    {
        fail("pcan: array sizes do not match");
    }
    uint32_t *x = to_u32(in, n_in), *e = to_u32(noise, n_noise), *out = alloc_junk((size_t)n_in * 4);
    int16_t *gains = to_i16(lut, n_lut);
    const int32_t status = helia_signal_pcan_u32(x, e, gains, snr_shift, out, n_in);
    check_guard(out, (size_t)n_in * 4);
    print_u32(status, out, n_in);
    free(x);
    free(e);
    free(out);
    free(gains);
    free(in);
    free(noise);
    free(lut);
}

static void run_log(void)
{
    const int32_t output_scale = read_int32();
    const uint32_t correction_bits = (uint32_t)read_integer();
    int32_t n_in;
    long long *in = rd_array(&n_in);
    uint32_t *x = to_u32(in, n_in);
    int16_t *out = alloc_junk((size_t)n_in * 2);
    const int32_t status = helia_signal_filter_bank_log_u32(x, n_in, output_scale, correction_bits, out);
    check_guard(out, (size_t)n_in * 2);
    print_i16(status, out, n_in);
    free(x);
    free(out);
    free(in);
}

int main(void)
{
    char keyword[16];
    while (scanf("%15s", keyword) == 1)
    {
        if (strcmp(keyword, "rfft") == 0)
        {
            run_rfft();
        }
        else if (strcmp(keyword, "subtract") == 0)
        {
            run_subtract();
        }
        else if (strcmp(keyword, "pcan") == 0)
        {
            run_pcan();
        }
        else if (strcmp(keyword, "log") == 0)
        {
            run_log();
        }
        else
        {
            fail("unknown record");
        }
        fflush(stdout);
    }
    return 0;
}
