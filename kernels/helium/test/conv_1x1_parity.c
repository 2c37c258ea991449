/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (Corstone-300, run on QEMU): random int8 1x1 convolutions, each run through
 * helia_mve_convolve_1x1_s8 and through the portable reference arm_convolve_1x1_s8_fast, comparing
 * the outputs byte for byte, guard bytes around them included. Half the calls pass precomputed weight
 * sums (bias + input_offset * filter row sum, as a module for ns-cmsis-nn's MVE build does), half
 * none (the kernel sums the rows itself). The driver (counts, refusals, result line) is parity_main.h.
 * HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/helium.py reads this list):
 * convolution/arm_convolve_1x1_s8_fast.c convolution/conv_core.c support/fixed_point.c */

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
#define HELIA_PARITY_SEED 20261201u
#endif

#define MAX_PIXELS 64
#define MAX_DEPTH 160
#define MAX_CH 48
#define GUARD 32
#define GUARD_BYTE 0x5A

static int8_t input[MAX_PIXELS * MAX_DEPTH];
static int8_t filter[MAX_CH * MAX_DEPTH];
static int32_t bias[MAX_CH];
static int32_t multiplier[MAX_CH];
static int32_t shift[MAX_CH];
static int32_t weight_sum[MAX_CH];
static int32_t wrong_sum[MAX_CH]; /* in a weight-sum context one int32 short: the kernel must not read it */
static int8_t expected[MAX_PIXELS * MAX_CH + 2 * GUARD];
static int8_t actual[sizeof(expected)];

typedef struct
{
    cmsis_nn_conv_params params;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    int with_bias;
    int with_weight_sum;
} call_case;

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    const int32_t batches = between(0, 9) == 0 ? 2 : 1;
    const int32_t h = between(1, 4);
    int32_t w = between(1, 8);
    while (batches * h * w > MAX_PIXELS)
    {
        --w;
    }
    /* Depths that are and are not multiples of 16 (the vector width) and of 32 (the wide tile: 32 and 64
     * unrolled, longer ones looped), the small-depth path's 8 and 16 (immediate steps) and 1 to 16 (one
     * or two pixels per load), and 17 to 31 just past it; channel counts odd and even. */
    const int32_t r = between(0, 6);
    const int32_t depth =
        r == 0 ? 16 * between(1, 6)
               : (r == 1 ? between(1, 15)
                         : (r == 2 ? 32 * between(1, 5)
                                   : (r == 3 ? between(1, MAX_DEPTH) : (r == 4 ? 8 * between(1, 2) : between(1, 31)))));
    const int32_t channels = between(0, 3) == 0 ? between(1, 3) : between(1, MAX_CH);
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

    draw_bytes(input, batches * h * w * depth);
    draw_bytes(filter, channels * depth);
    draw_requantization(bias, multiplier, shift, channels);
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

static arm_cmsis_nn_status run(const call_case *c, int mve, int8_t *out)
{
    const cmsis_nn_context ctx = {NULL, 0};
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
        return helia_mve_convolve_1x1_s8(&ctx, &sums, &c->params, &quant, &c->input_dims, input, &c->filter_dims,
                                         filter, &c->bias_dims, b, &c->output_dims, out + GUARD);
    }
    return arm_convolve_1x1_s8_fast(&ctx, &sums, &c->params, &quant, &c->input_dims, input, &c->filter_dims, filter,
                                    &c->bias_dims, b, &c->output_dims, out + GUARD);
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    printf("mismatch in call %ld: n %ld h %ld w %ld depth %ld channels %ld in_off %ld out_off %ld act [%ld,%ld] "
           "bias %d weight_sum %d; first differing byte %ld\n",
           (long)call, (long)c->input_dims.n, (long)c->input_dims.h, (long)c->input_dims.w, (long)c->input_dims.c,
           (long)c->output_dims.c, (long)c->params.input_offset, (long)c->params.output_offset,
           (long)c->params.activation.min, (long)c->params.activation.max, c->with_bias, c->with_weight_sum,
           (long)first_difference - GUARD);
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 8

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
    default: c->params.activation.min = -129; break;
    }
}

#include "parity_main.h"
