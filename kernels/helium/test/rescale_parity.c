/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (Corstone-300, run on QEMU): random int32 sums turned into floats by
 * helia_mve_rescale_s32_f32 and by its plain C, helia_rescale_s32_f32, comparing the float outputs' bits,
 * guard bytes around them included. Both orders (CONV_2D, FULLY_CONNECTED), with and without channel
 * scales and bias, channel counts of every remainder mod 4, a quarter of the calls in place; sums up to
 * int32's extremes and zeros; bounds none, ReLU, ReLU6, [-1, 1] or random; scales, channel scales and
 * biases mostly as real layers have them, else (the scale, or one channel's scale or bias) anywhere in
 * float's range, near the vector path's smallest products (2^-102) and below, subnormal, signed zeros,
 * infinities and NaNs, and biases that cancel a product exactly or nearly (results near and inside the
 * subnormal range). The driver (counts,
 * refusals, result line) is parity_main.h. HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at
 * compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/helium.py reads this list): none, the
 * reference being helia_rescale_s32_f32, the plain C in the Helium kernel's own source */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helia_helium.h"
#include "test_draw.h"

#ifndef HELIA_PARITY_CALLS
#define HELIA_PARITY_CALLS 3000
#endif
#ifndef HELIA_PARITY_SEED
#define HELIA_PARITY_SEED 20261205u
#endif

#define MAX_PIXELS 12
#define MAX_CHANNELS 70
#define GUARD 32
#define GUARD_BYTE 0x5A

static int32_t sums[MAX_PIXELS * MAX_CHANNELS] __attribute__((aligned(16)));
static float channel_scale[MAX_CHANNELS] __attribute__((aligned(16)));
static float bias[MAX_CHANNELS] __attribute__((aligned(16)));
static int8_t expected[4 * MAX_PIXELS * MAX_CHANNELS + 2 * GUARD] __attribute__((aligned(16)));
static int8_t actual[sizeof(expected)] __attribute__((aligned(16)));

typedef struct
{
    helia_rescale_params params;
    int32_t pixels;
    int32_t channels;
    int in_place;
    int null_sums;
} call_case;

static float from_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* 2^e for e in [-126, 127]. */
static float power_of_two(int32_t e)
{
    return from_bits((uint32_t)(e + 127) << 23);
}

/* A value about 2^exponent (exponent in [-126, 127]), either sign. */
static float about(int32_t exponent)
{
    const float mantissa = from_bits(0x3F800000u | ((uint32_t)next() & 0x7FFFFFu));
    return (between(0, 1) ? -1.0f : 1.0f) * mantissa * power_of_two(exponent);
}

/* Mostly a positive value about 2^[lo, hi]; else anything float has. */
static float draw_factor(int32_t lo, int32_t hi)
{
    const int32_t kind = between(0, 29);
    switch (kind)
    {
    case 0: return from_bits((uint32_t)between(1, 0x7FFFFF)); /* subnormal */
    case 1: return between(0, 1) ? 0.0f : -0.0f;
    case 2: return from_bits(between(0, 1) ? 0x7F800000u : 0xFF800000u); /* infinity */
    case 3: return from_bits(0x7FC00000u | ((uint32_t)next() & 0x3FFFFFu)); /* NaN */
    case 4: return about(between(-126, 127));
    case 5: return about(between(-126, -90)); /* about the vector path's limit and below */
    case 6: return -about(between(lo, hi));
    default:
    {
        const float x = about(between(lo, hi));
        return x < 0.0f ? -x : x;
    }
    }
}

static int32_t draw_sum(int32_t bits)
{
    const int32_t kind = between(0, 19);
    if (kind == 0)
    {
        return 0;
    }
    if (kind == 1)
    {
        return between(0, 1) ? INT32_MAX : INT32_MIN;
    }
    if (kind == 2)
    {
        return between(-3, 3);
    }
    return (int32_t)next() >> (31 - bits);
}

static float draw_bound(int32_t kind)
{
    return kind == 0 ? about(between(-3, 3)) : (kind == 1 ? from_bits((uint32_t)between(1, 0x7FFFFF)) : 0.0f);
}

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    c->pixels = between(1, MAX_PIXELS);
    c->channels = between(0, 3) == 0 ? between(1, 9) : between(1, MAX_CHANNELS);
    c->in_place = between(0, 3) == 0;
    helia_rescale_params *p = &c->params;
    p->order = between(0, 1) ? HELIA_RESCALE_CONV : HELIA_RESCALE_DENSE;
    /* Real layers: input scales about 2^-7 .. 2^-1, weight scales 2^-10 .. 2^-4, sums up to 2^20. Some
     * calls in the range where products approach 2^-102 (the vector path's limit) and cross it. */
    const int32_t regime = between(0, 5);
    const int32_t scale_lo = regime == 0 ? -126 : (regime == 1 ? -70 : -7);
    const int32_t scale_hi = regime == 0 ? 120 : (regime == 1 ? -40 : -1);
    const int32_t channel_lo = regime == 1 ? -70 : -10;
    const int32_t channel_hi = regime == 1 ? -30 : -4;
    p->scale = draw_factor(scale_lo, scale_hi);
    p->channel_scale = between(0, 2) == 0 ? NULL : channel_scale;
    p->bias = between(0, 2) == 0 ? NULL : bias;
    const int32_t sum_bits = between(0, 3) == 0 ? 30 : between(0, 20);
    for (int32_t i = 0; i < c->pixels * c->channels; ++i)
    {
        sums[i] = draw_sum(sum_bits);
    }
    const int32_t bias_kind = between(0, 5);
    for (int32_t ch = 0; ch < c->channels; ++ch)
    {
        const float typical = about(between(channel_lo, channel_hi));
        channel_scale[ch] = typical < 0.0f ? -typical : typical;
        const float product = (float)sums[ch] * ((p->channel_scale != NULL) ? channel_scale[ch] : 1.0f) * p->scale;
        if (bias_kind == 0)
        {
            /* The first pixel's product cancelled exactly, or nearly (a few units of its last place). */
            uint32_t bits;
            memcpy(&bits, &product, sizeof(bits));
            bias[ch] = -(between(0, 1) ? product : from_bits(bits + (uint32_t)between(-3, 3)));
        }
        else if (bias_kind == 1)
        {
            bias[ch] = about(between(-126, 127));
        }
        else
        {
            bias[ch] = about(between(-8, 2));
        }
    }
    /* Now and then one channel's scale or bias anything float has (a zero, subnormal, NaN, ...). */
    const int32_t odd_one = between(0, 3);
    if (odd_one == 0)
    {
        channel_scale[between(0, c->channels - 1)] = draw_factor(-126, 127);
    }
    else if (odd_one == 1)
    {
        bias[between(0, c->channels - 1)] = draw_factor(-126, 127);
    }
    const int32_t bounds = between(0, 5);
    p->activation_min = -INFINITY;
    p->activation_max = INFINITY;
    if (bounds == 1)
    {
        p->activation_min = 0.0f;
    }
    else if (bounds == 2)
    {
        p->activation_min = 0.0f;
        p->activation_max = 6.0f;
    }
    else if (bounds == 3)
    {
        p->activation_min = -1.0f;
        p->activation_max = 1.0f;
    }
    else if (bounds == 4)
    {
        const float a = draw_bound(between(0, 2));
        const float b = draw_bound(between(0, 2));
        p->activation_min = a < b ? a : b;
        p->activation_max = a < b ? b : a;
    }
}

static size_t output_bytes(const call_case *c)
{
    return sizeof(float) * (size_t)(c->pixels * c->channels);
}

static arm_cmsis_nn_status run(const call_case *c, int mve, int8_t *out)
{
    float *const dst = (float *)(void *)(out + GUARD);
    const int32_t *src = sums;
    if (c->in_place)
    {
        memcpy(dst, sums, output_bytes(c));
        src = (const int32_t *)(const void *)dst;
    }
    if (c->null_sums)
    {
        src = NULL;
    }
    return mve ? helia_mve_rescale_s32_f32(&c->params, src, c->pixels, c->channels, dst)
               : helia_rescale_s32_f32(&c->params, src, c->pixels, c->channels, dst);
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    const long value = ((long)first_difference - GUARD) / 4;
    printf("mismatch in call %ld: %s, %ld pixels x %ld channels, %s channel scales, %s bias%s; scale %a; "
           "first differing value %ld\n",
           (long)call, c->params.order == HELIA_RESCALE_CONV ? "conv" : "dense", (long)c->pixels,
           (long)c->channels, c->params.channel_scale ? "with" : "no", c->params.bias ? "with" : "no",
           c->in_place ? ", in place" : "", (double)c->params.scale, value);
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 4

static void break_contract(call_case *c, int32_t which)
{
    c->in_place = 0;
    switch (which)
    {
    case 0: c->pixels = 0; break;
    case 1: c->channels = -1; break;
    case 2: c->params.order = 7; break;
    default: c->null_sums = 1; break;
    }
}

#include "parity_main.h"
