/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (a DSP core's board, run on QEMU): random int8 1x1 convolutions, each run through
 * helia_dsp_convolve_1x1_s8 and through the portable reference arm_convolve_1x1_s8_fast, comparing the
 * outputs byte for byte, guard bytes around them included. Half the calls pass precomputed weight sums
 * (bias + input_offset * filter row sum), half none (what modules for DSP cores pass). Most calls keep
 * to real layers' requantization (shifts <= 0, biases well inside int32), which the kernel's short
 * requantization serves (half of them with positive multipliers and right shifts only, its SMMLAR form,
 * most of those with outputs inside int8 so the rounding decides them); the rest draw positive shifts or
 * biases up to 2^30, which send the call to the exact one. Depths 161 to 320 reach the path without the
 * widened pixel buffer (over 256), channel counts 49 to 160 more than one of its 64-channel blocks. The
 * driver (counts, refusals, result line) is parity_main.h; the draws are the Helium firmware's.
 * HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/own_kernels.py reads this list):
 * convolution/arm_convolve_1x1_s8_fast.c convolution/conv_core.c support/fixed_point.c */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arm_nnfunctions.h"
#include "helia_dsp.h"
#include "../../helium/test/test_draw.h"

#ifndef HELIA_PARITY_CALLS
#define HELIA_PARITY_CALLS 3000
#endif
#ifndef HELIA_PARITY_SEED
#define HELIA_PARITY_SEED 20261205u
#endif

#define MAX_PIXELS 64
#define MAX_DEPTH 160
#define MAX_DEEP_DEPTH 320 /* past the kernel's widened-buffer limit (256), on few pixels */
#define MAX_DEEP_PIXELS 8
#define MAX_CH 48
#define MAX_WIDE_CH 160 /* past the kernel's block of 64 channels, on few pixels and shallow depths */
#define MAX_WIDE_PIXELS 8
#define MAX_WIDE_DEPTH 40
#define GUARD 32
#define GUARD_BYTE 0x5A

static int8_t input[MAX_PIXELS * MAX_DEPTH];
static int8_t filter[MAX_CH * MAX_DEPTH];
static int32_t bias[MAX_WIDE_CH];
static int32_t multiplier[MAX_WIDE_CH];
static int32_t shift[MAX_WIDE_CH];
static int32_t weight_sum[MAX_WIDE_CH];
static int32_t wrong_sum[MAX_WIDE_CH]; /* in a weight-sum context one int32 short: the kernel must not read it */
static int8_t expected[MAX_PIXELS * MAX_CH + 2 * GUARD];
static int8_t actual[sizeof(expected)];

typedef struct
{
    cmsis_nn_conv_params params;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    int with_bias;
    int with_weight_sum;
    int wild; /* requantization outside real layers' (positive shifts, huge biases) */
} call_case;

/* A right shift that brings a typical sum of `depth` random products (about 11,000 * sqrt(depth)) into the
 * int8 range, so that the outputs land inside it and the rounding, not the saturation, decides them. */
static int32_t typical_shift(int32_t depth)
{
    uint32_t typical = 11000u;
    for (int32_t d = 4; d <= depth; d *= 4)
    {
        typical *= 2u;
    }
    int32_t bits = 0;
    while ((typical >> bits) > 96u)
    {
        ++bits;
    }
    return bits;
}

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    const int32_t batches = between(0, 9) == 0 ? 2 : 1;
    const int32_t h = between(1, 4);
    int32_t w = between(1, 8);
    /* Depths that are and are not multiples of 4 (one word per step), the specialized 8 and 16, 1 to 31
     * (steps and a tail), anything to 160, and a few past the widened buffer; channel counts odd and even. */
    const int32_t r = between(0, 7);
    const int32_t depth =
        r == 0 ? 4 * between(1, 40)
               : (r == 1 ? between(1, 15)
                         : (r == 2 ? 32 * between(1, 5)
                                   : (r == 3 ? between(1, MAX_DEPTH)
                                             : (r == 4 ? 8 * between(1, 2)
                                                       : (r == 5 ? between(161, MAX_DEEP_DEPTH) : between(1, 31))))));
    /* One call in eight: more channels than one block of the kernel's (64), odd counts among them. */
    const int wide = depth <= MAX_WIDE_DEPTH && between(0, 7) == 0;
    const int32_t max_pixels = depth > MAX_DEPTH ? MAX_DEEP_PIXELS : (wide ? MAX_WIDE_PIXELS : MAX_PIXELS);
    while (batches * h * w > max_pixels)
    {
        --w;
    }
    const int32_t max_channels = depth > MAX_DEPTH ? MAX_CH * MAX_DEPTH / MAX_DEEP_DEPTH : MAX_CH;
    const int32_t channels =
        wide ? between(MAX_CH + 1, MAX_WIDE_CH) : (between(0, 3) == 0 ? between(1, 3) : between(1, max_channels));
    c->input_dims = (cmsis_nn_dims){batches, h, w, depth};
    c->filter_dims = (cmsis_nn_dims){channels, 1, 1, depth};
    c->bias_dims = (cmsis_nn_dims){1, 1, 1, channels};
    c->output_dims = (cmsis_nn_dims){batches, h, w, channels};
    c->params.stride = (cmsis_nn_tile){1, 1};
    c->params.padding = (cmsis_nn_tile){0, 0};
    c->params.dilation = (cmsis_nn_tile){1, 1};
    draw_offsets(&c->params.input_offset, &c->params.output_offset, &c->params.activation);
    c->with_bias = between(0, 5) != 0;
    c->with_weight_sum = between(0, 1);
    c->wild = between(0, 4) == 0;
    /* Half the real calls as TFLite makes them: positive multipliers and right shifts of at least 1 (the
     * kernel's SMMLAR form); the others with some negative multipliers and zero shifts. */
    const int tflite_like = !c->wild && between(0, 1);

    draw_bytes(input, batches * h * w * depth);
    draw_bytes(filter, channels * depth);
    draw_requantization(bias, multiplier, shift, channels);
    for (int32_t i = 0; i < channels; ++i)
    {
        if (!c->wild && shift[i] > 0)
        {
            shift[i] = -shift[i];
        }
        if (tflite_like)
        {
            /* Most of these with outputs inside int8 (biases small, the shift sized to the sums). */
            multiplier[i] = multiplier[i] < 0 ? -multiplier[i] : multiplier[i];
            shift[i] = shift[i] == 0 ? -1 : shift[i];
            if (between(0, 3) != 0)
            {
                bias[i] = between(-(1 << 14), 1 << 14);
                const int32_t e = typical_shift(depth) + between(-2, 2);
                shift[i] = -(e < 1 ? 1 : e);
            }
        }
        else if (c->wild && between(0, 3) == 0)
        {
            bias[i] = between(-(1 << 30), 1 << 30);
        }
    }
    if (!c->with_bias)
    {
        /* The contract's largest shift, 30, on channel 0, whose zero filter row keeps the accumulator 0
         * (any other value overflows a left shift of 30 in the reference). */
        memset(filter, 0, (size_t)depth);
        shift[0] = 30;
    }
    compute_weight_sums(weight_sum, filter, channels, depth, c->with_bias ? bias : NULL, c->params.input_offset);
}

static size_t output_bytes(const call_case *c)
{
    return (size_t)c->output_dims.n * c->output_dims.h * c->output_dims.w * c->output_dims.c;
}

static arm_cmsis_nn_status run(const call_case *c, int ours, int8_t *out)
{
    const cmsis_nn_context ctx = {NULL, 0};
    cmsis_nn_context sums = {c->with_weight_sum ? weight_sum : NULL,
                             c->with_weight_sum ? c->output_dims.c * (int32_t)sizeof(int32_t) : 0};
    if (ours && !c->with_weight_sum && (c->input_dims.w & 1))
    {
        /* Half the calls without sums hand the kernel wrong ones in a context too small to hold them. */
        for (int32_t i = 0; i < c->output_dims.c; ++i)
        {
            wrong_sum[i] = weight_sum[i] + 1000;
        }
        sums = (cmsis_nn_context){wrong_sum, c->output_dims.c * (int32_t)sizeof(int32_t) - 1};
    }
    const cmsis_nn_per_channel_quant_params quant = {multiplier, shift};
    const int32_t *b = c->with_bias ? bias : NULL;
    if (ours)
    {
        return helia_dsp_convolve_1x1_s8(&ctx, &sums, &c->params, &quant, &c->input_dims, input, &c->filter_dims,
                                         filter, &c->bias_dims, b, &c->output_dims, out + GUARD);
    }
    return arm_convolve_1x1_s8_fast(&ctx, &sums, &c->params, &quant, &c->input_dims, input, &c->filter_dims, filter,
                                    &c->bias_dims, b, &c->output_dims, out + GUARD);
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    printf("mismatch in call %ld: n %ld h %ld w %ld depth %ld channels %ld in_off %ld out_off %ld act [%ld,%ld] "
           "bias %d weight_sum %d wild %d; first differing byte %ld\n",
           (long)call, (long)c->input_dims.n, (long)c->input_dims.h, (long)c->input_dims.w, (long)c->input_dims.c,
           (long)c->output_dims.c, (long)c->params.input_offset, (long)c->params.output_offset,
           (long)c->params.activation.min, (long)c->params.activation.max, c->with_bias, c->with_weight_sum, c->wild,
           (long)first_difference - GUARD);
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 10

static void break_contract(call_case *c, int32_t which)
{
    switch (which)
    {
    case 0: c->filter_dims.w = 3; break;
    case 1: c->params.stride.h = 2; break;
    case 2: c->params.padding.w = 1; break;
    case 3: c->filter_dims.c = c->input_dims.c + 1; break; /* grouped */
    case 4: c->params.input_offset = 129; break;
    case 5: c->params.output_offset = 128; break;
    case 6: shift[0] = 31; break;
    case 7: shift[c->output_dims.c - 1] = -32; break;
    case 8: c->params.activation.max = c->params.activation.min - 1; break;
    default: c->params.activation.min = -129; break;
    }
}

#define HELIA_TEST_FAMILY "dsp"
#include "../../helium/test/parity_main.h"
