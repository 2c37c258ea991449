/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (a DSP core's board, run on QEMU): random int8 3x3 depthwise calls, each run through
 * helia_dsp_depthwise_conv_3x3_s8 and through the general reference arm_depthwise_conv_s8 (the
 * portable kernels'), comparing the outputs byte for byte, guard bytes around them included.
 * The driver (counts, refusals, result line) is parity_main.h; the draws are the Helium firmware's.
 * HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/own_kernels.py reads this list):
 * depthwise/arm_depthwise_conv_s8.c depthwise/depthwise_core.c support/fixed_point.c */

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
#define HELIA_PARITY_SEED 20251205u
#endif

#define MAX_H 30 /* tall, narrow planes (kws is 25x5) and wide, flat ones */
#define MAX_W 30
#define MAX_CH 80
#define MAX_BATCH 2
#define MAX_OUT_H (MAX_H + 4) /* padding up to 2 on each side at stride 1 */
#define MAX_OUT_W (MAX_W + 4)
#define GUARD 32
#define GUARD_BYTE 0x5A

static int8_t input[MAX_BATCH * MAX_H * MAX_W * MAX_CH];
static int8_t filter[9 * MAX_CH];
static int32_t bias[MAX_CH];
static int32_t multiplier[MAX_CH];
static int32_t shift[MAX_CH];
static int8_t expected[MAX_BATCH * MAX_OUT_H * MAX_OUT_W * MAX_CH + 2 * GUARD];
static int8_t actual[sizeof(expected)];

typedef struct
{
    cmsis_nn_dw_conv_params params;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    int with_bias;
} call_case;

/* Output length along one axis for a 3-tap window, or 0 when the padded input is shorter than 3. */
static int32_t out_length(int32_t in, int32_t stride, int32_t lead, int32_t trail)
{
    const int32_t span = in + lead + trail;
    return span < 3 ? 0 : (span - 3) / stride + 1;
}

static void draw_axis(int32_t *in, int32_t *stride, int32_t *lead, int32_t *out, int32_t max_in)
{
    /* Mostly small sizes (more calls per second), sometimes the full range. */
    *in = between(0, 3) == 0 ? between(1, max_in) : between(1, 8);
    *stride = between(0, 9) == 0 ? 3 : between(1, 2);
    const int32_t r = between(0, 9);
    *lead = r < 4 ? 0 : (r < 9 ? 1 : 2);
    int32_t trail = between(0, 9) < 8 ? between(0, 1) : 2;
    *out = out_length(*in, *stride, *lead, trail);
    if (*out == 0)
    {
        trail = 3 - *in - *lead; /* pad up to one window */
        *out = out_length(*in, *stride, *lead, trail);
    }
}

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    int32_t h, w, sh, sw, ph, pw, oh, ow;
    draw_axis(&h, &sh, &ph, &oh, MAX_H);
    draw_axis(&w, &sw, &pw, &ow, MAX_W);
    /* Channel counts: 1 to 7 (a partial group only, or one group and a tail), multiples of 4 and 16, any. */
    const int32_t r = between(0, 4);
    const int32_t ch = r == 0 ? between(1, 7) : (r == 1 ? 4 * between(1, 20) : between(1, MAX_CH));
    const int32_t batches = between(0, 9) == 0 ? 2 : 1;
    c->input_dims = (cmsis_nn_dims){batches, h, w, ch};
    c->filter_dims = (cmsis_nn_dims){1, 3, 3, between(0, 7) == 0 ? 0 : ch}; /* filter c 0: not checked */
    c->bias_dims = (cmsis_nn_dims){1, 1, 1, ch};
    c->output_dims = (cmsis_nn_dims){batches, oh, ow, ch};
    c->params.ch_mult = 1;
    c->params.stride = (cmsis_nn_tile){sw, sh};
    c->params.padding = (cmsis_nn_tile){pw, ph};
    c->params.dilation = (cmsis_nn_tile){1, 1};
    draw_offsets(&c->params.input_offset, &c->params.output_offset, &c->params.activation);
    c->with_bias = between(0, 5) != 0;

    draw_bytes(input, batches * h * w * ch);
    draw_bytes(filter, 9 * ch);
    draw_requantization(bias, multiplier, shift, ch);
    /* Now and then biases beyond the kernel's fast requantization (|bias| > 2^28), so that groups whose
     * sums are not doubled run too; within 2^30, where the reference's int32 sum cannot overflow. */
    if (between(0, 7) == 0)
    {
        for (int32_t i = 0; i < ch; ++i)
        {
            if (between(0, 3) == 0)
            {
                const int32_t big = between((1 << 28) + 1, 1 << 30);
                bias[i] = between(0, 1) ? big : -big;
            }
        }
    }
}

static size_t output_bytes(const call_case *c)
{
    return (size_t)c->output_dims.n * c->output_dims.h * c->output_dims.w * c->output_dims.c;
}

static arm_cmsis_nn_status run(const call_case *c, int ours, int8_t *out)
{
    const cmsis_nn_context ctx = {NULL, 0};
    const cmsis_nn_per_channel_quant_params quant = {multiplier, shift};
    const int32_t *b = c->with_bias ? bias : NULL;
    if (ours)
    {
        return helia_dsp_depthwise_conv_3x3_s8(&ctx, &c->params, &quant, &c->input_dims, input, &c->filter_dims,
                                               filter, &c->bias_dims, b, &c->output_dims, out + GUARD);
    }
    return arm_depthwise_conv_s8(&ctx, &c->params, &quant, &c->input_dims, input, &c->filter_dims, filter,
                                 &c->bias_dims, b, &c->output_dims, out + GUARD);
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    printf("mismatch in call %ld: n %ld h %ld w %ld c %ld stride %ld,%ld pad %ld,%ld out %ldx%ld in_off %ld "
           "out_off %ld act [%ld,%ld] bias %d; first differing byte %ld\n",
           (long)call, (long)c->input_dims.n, (long)c->input_dims.h, (long)c->input_dims.w,
           (long)c->input_dims.c, (long)c->params.stride.h, (long)c->params.stride.w, (long)c->params.padding.h,
           (long)c->params.padding.w, (long)c->output_dims.h, (long)c->output_dims.w,
           (long)c->params.input_offset, (long)c->params.output_offset, (long)c->params.activation.min,
           (long)c->params.activation.max, c->with_bias, (long)first_difference - GUARD);
    if (first_difference >= GUARD && first_difference < GUARD + output_bytes(c))
    {
        const int32_t channel = (int32_t)((first_difference - GUARD) % (size_t)c->input_dims.c);
        printf("  channel %ld: multiplier %ld shift %ld bias %ld\n", (long)channel, (long)multiplier[channel],
               (long)shift[channel], (long)bias[channel]);
    }
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 10

static void break_contract(call_case *c, int32_t which)
{
    switch (which)
    {
    case 0: c->filter_dims.w = 5; break;
    case 1: c->params.dilation.h = 2; break;
    case 2: c->output_dims.c = 2 * c->input_dims.c; break;
    case 3: c->params.input_offset = 129; break;
    case 4: c->params.output_offset = 128; break;
    case 5: c->params.activation.min = -129; break;
    case 6: c->params.stride.w = 0; break;
    case 7: c->params.padding.h = -1; break;
    case 8: shift[c->input_dims.c - 1] = 31; break;
    default: c->filter_dims.c = c->input_dims.c + 1; break;
    }
}

#define HELIA_TEST_FAMILY "dsp"
#include "../../helium/test/parity_main.h"
