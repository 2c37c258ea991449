/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (Corstone-300, run on QEMU): random int8 convolutions (filter sizes 1..5, strides
 * 1..3, dilations 1..2, leading and trailing padding, batches, odd pixel and channel counts), each run
 * through helia_mve_convolve_s8 and through the portable reference arm_convolve_s8, comparing the
 * outputs byte for byte, guard bytes around them included. Half the calls pass precomputed weight
 * sums, half none. The kernel's wide path (weight sums, every shift right, columns of 16 bytes or
 * more) is reached by drawing all shifts right in two calls of three and, in a quarter of the calls,
 * 16, 32 or 64 input channels (columns that are multiples of 16 and 32, with and without the 16-byte
 * step), a third with 3x3 filters; the rest draws any channel count (columns with a predicated tail,
 * or under 16 bytes). A quarter of the calls are stems for the kernel's short-column path (columns of at
 * most 32 bytes, at most 16 channels): 1 to 4 input channels, 3x3 filters in half of them, strides 1
 * and 2, inputs up to 20 x 20 (pairs inside the input and at every edge, odd widths), 1 to 9 output
 * channels mostly; and every 100th call is the vww stem itself (96x96x3, 3x3 stride 2, 8 channels,
 * padding trailing as TFLite's SAME gives it, or on both sides).
 * The driver (counts, refusals, result line) is parity_main.h.
 * HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/helium.py reads this list):
 * convolution/arm_convolve_s8.c convolution/conv_core.c support/fixed_point.c */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arm_nnfunctions.h"
#include "helia_helium.h"
#include "test_draw.h"

#ifndef HELIA_PARITY_CALLS
#define HELIA_PARITY_CALLS 3000
#endif
#ifndef HELIA_PARITY_SEED
#define HELIA_PARITY_SEED 20261202u
#endif

#define MAX_HW 10
#define MAX_IN_CH 64
#define MAX_CH 24
#define MAX_K 5
#define MAX_BATCH 2
#define MAX_OUT_HW (MAX_HW + 2 * (MAX_K - 1))
#define STEM_HW 20 /* the short path's draws: inputs up to 20 x 20 of 1 to 4 channels */
#define VWW_HW 96  /* the vww stem: 96 x 96 x 3 -> 48 x 48 x 8 */
#define GUARD 32
#define GUARD_BYTE 0x5A

#define MAX2(a, b) ((a) > (b) ? (a) : (b))
static int8_t input[MAX2(MAX_BATCH * MAX_HW * MAX_HW * MAX_IN_CH, VWW_HW * VWW_HW * 3)];
static int8_t filter[MAX_CH * MAX_K * MAX_K * MAX_IN_CH];
static int32_t bias[MAX_CH];
static int32_t multiplier[MAX_CH];
static int32_t shift[MAX_CH];
static int32_t weight_sum[MAX_CH];
static int32_t wrong_sum[MAX_CH]; /* in a weight-sum context one int32 short: the kernel must not read it */
/* The scratch the kernel asks for, then guard bytes: a buffer size reported short shows as a write past it. */
static int8_t scratch[2 * MAX_K * MAX_K * MAX_IN_CH + GUARD] __attribute__((aligned(16)));
static int8_t expected[MAX2(MAX_BATCH * (STEM_HW + 2 * (MAX_K - 1)) * (STEM_HW + 2 * (MAX_K - 1)) * MAX_CH,
                             (VWW_HW / 2 + 1) * (VWW_HW / 2 + 1) * 8) +
                        2 * GUARD];
static int8_t actual[sizeof(expected)];

typedef struct
{
    cmsis_nn_conv_params params;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    int with_bias;
    int with_weight_sum;
} call_case;

/* One axis: input size, filter size, stride, dilation, leading padding; the output length (>= 1). */
static void draw_axis(int32_t k_fixed, int32_t stem, int32_t *in, int32_t *k, int32_t *stride, int32_t *dilation,
                      int32_t *lead, int32_t *out)
{
    do
    {
        *in = stem ? between(1, STEM_HW) : (between(0, 3) == 0 ? between(1, MAX_HW) : between(1, 6));
        *k = k_fixed > 0 ? k_fixed : between(1, MAX_K);
        *stride = stem ? between(1, 2) : (between(0, 4) == 0 ? 3 : between(1, 2));
        *dilation = between(0, stem ? 9 : 5) == 0 ? 2 : 1;
        const int32_t span = *dilation * (*k - 1) + 1;
        *lead = between(0, 2) == 0 ? 0 : between(0, span - 1);
        const int32_t trail = between(0, span - 1);
        const int32_t padded = *in + *lead + trail;
        *out = padded < span ? 0 : (padded - span) / *stride + 1;
    } while (*out < 1);
}

static int32_t calls_drawn;

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    int32_t h, w, kh, kw, sh, sw, dh, dw, ph, pw, oh, ow, in_ch, channels, batches;
    if (calls_drawn++ % 100 == 50)
    {
        /* The vww stem: SAME padding (one trailing row and column) or one on every side. */
        const int32_t lead = between(0, 1);
        h = w = VWW_HW;
        kh = kw = 3;
        sh = sw = 2;
        dh = dw = 1;
        ph = pw = lead;
        oh = ow = (VWW_HW + lead + 1 - 3) / 2 + 1;
        in_ch = 3;
        channels = between(0, 1) == 0 ? 8 : between(1, 16);
        batches = 1;
    }
    else
    {
        /* A quarter of the calls stems (the short path), a third of the others 3x3 filters, so the wide
         * path's unrolled depths (27, 144, 288) come up often. */
        const int32_t stem = between(0, 3) == 0;
        const int32_t k_fixed = between(0, stem ? 1 : 2) == 0 ? 3 : 0;
        draw_axis(k_fixed, stem, &h, &kh, &sh, &dh, &ph, &oh);
        draw_axis(k_fixed, stem, &w, &kw, &sw, &dw, &pw, &ow);
        static const int32_t deep[] = {16, 32, 64};
        const int32_t ch_draw = between(0, 11);
        in_ch = stem ? between(1, 4) : (ch_draw < 3 ? deep[ch_draw] : (ch_draw < 7 ? between(1, 3) : between(1, 20)));
        channels = stem ? (between(0, 4) == 0 ? between(10, 17) : between(1, 9))
                        : (between(0, 3) == 0 ? between(1, 3) : between(1, MAX_CH));
        batches = between(0, 9) == 0 ? 2 : 1;
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
    if (between(0, 2) != 0)
    {
        /* Every channel shifts right, as in real layers (the wide path's condition). */
        for (int32_t i = 0; i < channels; ++i)
        {
            shift[i] = shift[i] < 0 ? shift[i] : -between(1, 31);
        }
    }
    compute_weight_sums(weight_sum, filter, channels, depth, c->with_bias ? bias : NULL, c->params.input_offset);
}

static size_t output_bytes(const call_case *c)
{
    return (size_t)c->output_dims.n * c->output_dims.h * c->output_dims.w * c->output_dims.c;
}

static arm_cmsis_nn_status run(const call_case *c, int mve, int8_t *out)
{
    cmsis_nn_context sums = {c->with_weight_sum ? weight_sum : NULL,
                             c->with_weight_sum ? c->output_dims.c * (int32_t)sizeof(int32_t) : 0};
    if (mve && !c->with_weight_sum && (c->input_dims.w & 1))
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
    if (mve)
    {
        const cmsis_nn_context ctx = {scratch, helia_mve_convolve_s8_buffer_size(&c->input_dims, &c->filter_dims)};
        /* helia_helium.h's promise, which the compiler's arena plan mirrors (ns_cmsis_nn_scratch.py). */
        const int32_t promised = 2 * c->filter_dims.h * c->filter_dims.w * c->input_dims.c;
        if (ctx.size != promised)
        {
            printf("scratch size %ld, %ld promised\n", (long)ctx.size, (long)promised);
            return ARM_CMSIS_NN_FAILURE;
        }
        memset(scratch + ctx.size, GUARD_BYTE, GUARD);
        const arm_cmsis_nn_status status = helia_mve_convolve_s8(&ctx, &sums, &c->params, &quant, &c->input_dims,
                                                                 input, &c->filter_dims, filter, &c->bias_dims, b,
                                                                 &c->output_dims, out + GUARD);
        for (int32_t i = 0; i < GUARD; ++i)
        {
            if (scratch[ctx.size + i] != (int8_t)GUARD_BYTE)
            {
                printf("the kernel wrote past the %ld scratch bytes it asked for\n", (long)ctx.size);
                return ARM_CMSIS_NN_FAILURE;
            }
        }
        return status;
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
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 7

static void break_contract(call_case *c, int32_t which)
{
    switch (which)
    {
    case 0: c->filter_dims.c = c->input_dims.c + 1; break; /* grouped */
    case 1: c->params.stride.w = 0; break;
    case 2: c->params.padding.h = -1; break;
    case 3: c->params.input_offset = 129; break;
    case 4: c->params.output_offset = 128; break;
    case 5: shift[0] = 31; break;
    default: c->params.activation.min = -129; break;
    }
}

#include "parity_main.h"
