/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (a DSP core's board, run on QEMU): random int8 convolutions, each run through
 * helia_dsp_convolve_s8 and through the portable reference arm_convolve_s8, comparing the outputs
 * byte for byte, guard bytes around them included. Filters 1x1 to 5x5 and 10x4 (kws), strides 1 to 3,
 * dilations 1 and 2, leading and trailing padding (and windows wholly in the padding), batches, input
 * depths 1 to 40 (1, 3 and non-multiples of 4 often), odd output channel counts, offsets, clamps,
 * multipliers and shifts of both signs, biases beyond the fast requantization, NULL bias; half the
 * calls pass precomputed weight sums, and half of the others wrong sums in a context one int32 too
 * short (which the kernel must not read). Our kernel gets no scratch (ctx NULL). Every 50th call is
 * vww's first layer or kws's. The driver (counts, refusals, result line) is parity_main.h.
 * HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/own_kernels.py reads this list):
 * convolution/arm_convolve_s8.c convolution/conv_core.c support/fixed_point.c */

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

#define MAX_HW 12
#define MAX_IN_CH 40
#define MAX_CH 24
#define MAX_KH 10
#define MAX_KW 5
#define MAX_BATCH 2
#define MAX_OUT_HW (MAX_HW + 2 * 2 * (MAX_KH - 1)) /* stride 1, dilation 2, padding up to the span */
#define VWW_HW 96                                   /* vww's first layer: 96 x 96 x 3 -> 48 x 48 x 8 */
#define GUARD 32
#define GUARD_BYTE 0x5A

#define MAX2(a, b) ((a) > (b) ? (a) : (b))
static int8_t input[MAX2(MAX_BATCH * MAX_HW * MAX_HW * MAX_IN_CH, VWW_HW * VWW_HW * 3)];
static int8_t filter[MAX2(MAX_CH * MAX_KH * MAX_KW * MAX_IN_CH, 64 * 40)];
static int32_t bias[64];
static int32_t multiplier[64];
static int32_t shift[64];
static int32_t weight_sum[64];
static int32_t wrong_sum[64];
static int8_t expected[MAX2(MAX_BATCH * MAX_OUT_HW * MAX_OUT_HW * MAX_CH, 49 * 49 * 8) + 2 * GUARD];
static int8_t actual[sizeof(expected)];

typedef struct
{
    cmsis_nn_conv_params params;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    int with_bias;
    int with_weight_sum;
} call_case;

/* One axis: input size, stride, dilation, leading padding for filter size k; the output length (>= 1).
 * Trailing padding up to the window's span, so that some windows lie wholly in the padding. */
static void draw_axis(int32_t k, int32_t *in, int32_t *stride, int32_t *dilation, int32_t *lead, int32_t *out)
{
    do
    {
        *in = between(0, 3) == 0 ? between(1, MAX_HW) : between(1, 7);
        *stride = between(0, 4) == 0 ? 3 : between(1, 2);
        *dilation = between(0, 4) == 0 ? 2 : 1;
        const int32_t span = *dilation * (k - 1) + 1;
        *lead = between(0, 2) == 0 ? 0 : between(0, span);
        const int32_t trail = between(0, span);
        const int32_t padded = *in + *lead + trail;
        *out = padded < span ? 0 : (padded - span) / *stride + 1;
    } while (*out < 1);
}

static int32_t calls_drawn;

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    int32_t h, w, kh, kw, sh, sw, dh = 1, dw = 1, ph, pw, oh, ow, in_ch, channels, batches = 1;
    const int32_t special = calls_drawn++ % 50;
    if (special == 25)
    {
        /* vww's first layer: SAME padding (one trailing row and column) or one on every side. */
        h = w = VWW_HW;
        kh = kw = 3;
        sh = sw = 2;
        ph = pw = between(0, 1);
        oh = ow = (VWW_HW + ph + 1 - 3) / 2 + 1;
        in_ch = 3;
        channels = 8;
    }
    else if (special == 49)
    {
        /* kws's first layer: 49 x 10 x 1, 10 x 4 filter, stride 2, padding h 4 w 1 -> 25 x 5 (fewer channels). */
        h = 49;
        w = 10;
        kh = 10;
        kw = 4;
        sh = sw = 2;
        ph = 4;
        pw = 1;
        oh = 25;
        ow = 5;
        in_ch = 1;
        channels = between(1, 17);
    }
    else
    {
        const int32_t shape = between(0, 9);
        kh = shape == 0 ? 10 : (shape < 4 ? 3 : between(1, 5));
        kw = shape == 0 ? 4 : (shape < 4 ? 3 : between(1, 5));
        draw_axis(kh > MAX_KW ? MAX_KW : kh, &h, &sh, &dh, &ph, &oh); /* a 10-tap axis takes a 5-tap draw... */
        if (kh > MAX_KW)
        {
            /* ...then its own padding, so that the 10 taps fit: leading up to 9, a window at least. */
            dh = 1;
            ph = between(0, 9);
            const int32_t trail = between(0, 9);
            const int32_t padded = h + ph + trail;
            if (padded < kh)
            {
                h += kh - padded;
            }
            oh = (h + ph + trail - kh) / sh + 1;
        }
        draw_axis(kw, &w, &sw, &dw, &pw, &ow);
        const int32_t ch_draw = between(0, 9);
        in_ch = ch_draw < 2 ? 1 : (ch_draw < 4 ? 3 : (ch_draw < 6 ? 4 * between(1, 8) : between(1, MAX_IN_CH)));
        channels = between(0, 2) == 0 ? 2 * between(1, 8) - 1 : between(1, MAX_CH);
        batches = between(0, 9) == 0 ? 2 : 1;
        /* Within the buffers: 2 x 12 x 12 x 40 inputs, outputs of at most (12 + 18 - 9) / 1 + 1 = 22 a side. */
    }
    c->input_dims = (cmsis_nn_dims){batches, h, w, in_ch};
    c->filter_dims = (cmsis_nn_dims){channels, kh, kw, in_ch};
    c->bias_dims = (cmsis_nn_dims){1, 1, 1, channels};
    c->output_dims = (cmsis_nn_dims){batches, oh, ow, channels};
    c->params.stride = (cmsis_nn_tile){sw, sh};
    c->params.padding = (cmsis_nn_tile){pw, ph};
    c->params.dilation = (cmsis_nn_tile){dw, dh};
    draw_offsets(&c->params.input_offset, &c->params.output_offset, &c->params.activation);
    c->with_bias = between(0, 5) != 0;
    c->with_weight_sum = between(0, 1);

    draw_bytes(input, batches * h * w * in_ch);
    const int32_t depth = kh * kw * in_ch;
    draw_bytes(filter, channels * depth);
    draw_requantization(bias, multiplier, shift, channels);
    if (between(0, 7) == 0)
    {
        /* Biases beyond the fast requantization's bound (2^29), within 2^30: the reference's int32 sum
         * cannot overflow there. */
        for (int32_t i = 0; i < channels; ++i)
        {
            if (between(0, 2) == 0)
            {
                const int32_t big = between((1 << 29) + 1, 1 << 30);
                bias[i] = between(0, 1) ? big : -big;
            }
        }
    }
    compute_weight_sums(weight_sum, filter, channels, depth, c->with_bias ? bias : NULL, c->params.input_offset);
}

static size_t output_bytes(const call_case *c)
{
    return (size_t)c->output_dims.n * c->output_dims.h * c->output_dims.w * c->output_dims.c;
}

static arm_cmsis_nn_status run(const call_case *c, int ours, int8_t *out)
{
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
    /* With weight sums the bias is not read: hand the kernel none then, half the time. */
    const int32_t *b = c->with_bias && !(ours && c->with_weight_sum && (c->input_dims.h & 1)) ? bias : NULL;
    if (ours)
    {
        return helia_dsp_convolve_s8(NULL, &sums, &c->params, &quant, &c->input_dims, input, &c->filter_dims, filter,
                                     &c->bias_dims, b, &c->output_dims, out + GUARD);
    }
    const cmsis_nn_context none = {NULL, 0};
    return arm_convolve_s8(&none, &sums, &c->params, &quant, &c->input_dims, input, &c->filter_dims, filter,
                           &c->bias_dims, b, NULL, &c->output_dims, out + GUARD);
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    printf("mismatch in call %ld: n %ld in %ldx%ldx%ld filter %ldx%ld out %ldx%ldx%ld stride %ld,%ld pad %ld,%ld "
           "dilation %ld,%ld in_off %ld out_off %ld act [%ld,%ld] bias %d weight_sum %d; first differing byte %ld\n",
           (long)call, (long)c->input_dims.n, (long)c->input_dims.h, (long)c->input_dims.w, (long)c->input_dims.c,
           (long)c->filter_dims.h, (long)c->filter_dims.w, (long)c->output_dims.h, (long)c->output_dims.w,
           (long)c->output_dims.c, (long)c->params.stride.h, (long)c->params.stride.w, (long)c->params.padding.h,
           (long)c->params.padding.w, (long)c->params.dilation.h, (long)c->params.dilation.w,
           (long)c->params.input_offset, (long)c->params.output_offset, (long)c->params.activation.min,
           (long)c->params.activation.max, c->with_bias, c->with_weight_sum, (long)first_difference - GUARD);
    if (first_difference >= GUARD && first_difference < GUARD + output_bytes(c))
    {
        const int32_t channel = (int32_t)((first_difference - GUARD) % (size_t)c->output_dims.c);
        printf("  channel %ld: multiplier %ld shift %ld bias %ld\n", (long)channel, (long)multiplier[channel],
               (long)shift[channel], (long)bias[channel]);
    }
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 11

static void break_contract(call_case *c, int32_t which)
{
    switch (which)
    {
    case 0: c->filter_dims.c = c->input_dims.c + 1; break; /* grouped or inconsistent */
    case 1: c->params.stride.w = 0; break;
    case 2: c->params.padding.h = -1; break;
    case 3: c->params.input_offset = 129; break;
    case 4: c->params.output_offset = 128; break;
    case 5: shift[c->output_dims.c - 1] = 31; break;
    case 6: c->params.activation.min = -129; break;
    case 7: c->params.dilation.h = 0; break;
    case 8: c->filter_dims.n = c->output_dims.c + 1; break;
    case 9: c->params.activation.min = c->params.activation.max + 1; break;
    default: c->params.input_offset = -128; break;
    }
}

#define HELIA_TEST_FAMILY "dsp"
#include "../../helium/test/parity_main.h"
