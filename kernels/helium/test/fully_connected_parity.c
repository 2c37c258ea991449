/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (Corstone-300, run on QEMU): random int8 fully connected calls with per-tensor
 * requantization, each run through helia_mve_fully_connected_s8 and through the portable reference
 * arm_fully_connected_s8, comparing the outputs byte for byte, guard bytes around them included. Depths
 * and output counts of every remainder (mod 16 and mod 4), batches, input and filter offsets, shifts of
 * both signs, clamps. Most calls pass the kernel sums a module for ns-cmsis-nn's MVE build precomputes
 * (bias + input_offset * (row sum + depth * filter_offset)), the rest none or a context too small (the
 * kernel sums the rows itself). The driver (counts, refusals, result line) is parity_main.h.
 * HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/helium.py reads this list):
 * fully_connected/arm_fully_connected_s8.c support/fixed_point.c */

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
#define HELIA_PARITY_SEED 20261204u
#endif

#define MAX_BATCHES 3
#define MAX_DEPTH 700
#define MAX_ROWS 70
#define GUARD 32
#define GUARD_BYTE 0x5A

static int8_t input[MAX_BATCHES * MAX_DEPTH];
static int8_t filter[MAX_ROWS * MAX_DEPTH];
static int32_t bias[MAX_ROWS];
static int32_t multiplier[MAX_ROWS];
static int32_t shift[MAX_ROWS];
static int32_t kernel_sum[MAX_ROWS];
static int8_t expected[MAX_BATCHES * MAX_ROWS + 2 * GUARD];
static int8_t actual[sizeof(expected)];

typedef struct
{
    cmsis_nn_fc_params params;
    cmsis_nn_per_tensor_quant_params quant;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    int with_bias;
    int sums; /* 0: none (NULL buffer), 1: the kernel sums, 2: a context one int32 short of them */
} call_case;

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    const int32_t batches = between(0, 4) == 0 ? between(2, MAX_BATCHES) : 1;
    /* Depths that are and are not multiples of 16 (the vector width), long ones (many loop steps),
     * output counts of every remainder mod 4 (the row groups). */
    const int32_t r = between(0, 4);
    const int32_t depth = r == 0 ? 16 * between(1, 8)
                                 : (r == 1 ? between(1, 17) : (r == 2 ? between(400, MAX_DEPTH) : between(1, 160)));
    const int32_t rows = between(0, 3) == 0 ? between(1, 7) : between(1, MAX_ROWS);
    c->input_dims = (cmsis_nn_dims){batches, 1, 1, depth};
    c->filter_dims = (cmsis_nn_dims){depth, 1, 1, rows};
    c->bias_dims = (cmsis_nn_dims){1, 1, 1, rows};
    c->output_dims = (cmsis_nn_dims){batches, 1, 1, rows};
    draw_offsets(&c->params.input_offset, &c->params.output_offset, &c->params.activation);
    /* Symmetric weights mostly (filter offset 0), else any int8 zero point. */
    const int32_t f = between(0, 3);
    c->params.filter_offset = f < 2 ? 0 : (f == 2 ? between(-127, 128) : (between(0, 1) ? 128 : -127));
    c->with_bias = between(0, 5) != 0;
    const int32_t s = between(0, 5);
    c->sums = s == 0 ? 0 : (s == 1 ? 2 : 1);

    draw_bytes(input, batches * depth);
    draw_bytes(filter, rows * depth);
    draw_requantization(bias, multiplier, shift, 1);
    c->quant.multiplier = multiplier[0];
    c->quant.shift = shift[0];
    const int32_t bias_bits = between(0, 22);
    for (int32_t i = 0; i < rows; ++i)
    {
        bias[i] = between(-(1 << bias_bits), 1 << bias_bits);
    }
    if (between(0, 40) == 0)
    {
        c->quant.shift = 30; /* the contract's largest; the reference's left shift wraps, as ours */
    }
    else if (between(0, 7) == 0)
    {
        /* A multiplier of one half, a small right shift and small values: many outputs inside the clamp
         * fall exactly half-way, where the rounding steps (ties up, then ties away from zero) matter. */
        c->quant.multiplier = 1 << 30;
        c->quant.shift = -between(1, 4);
        c->params.input_offset = 0;
        c->params.filter_offset = 0;
        for (int32_t i = 0; i < batches * depth; ++i)
        {
            input[i] = (int8_t)(input[i] % 4);
        }
        for (int32_t i = 0; i < rows * depth; ++i)
        {
            filter[i] = (int8_t)(filter[i] % 4);
        }
        for (int32_t i = 0; i < rows; ++i)
        {
            bias[i] %= 64;
        }
    }
    for (int32_t i = 0; i < rows; ++i)
    {
        int32_t row_sum = 0;
        for (int32_t k = 0; k < depth; ++k)
        {
            row_sum += filter[i * depth + k];
        }
        kernel_sum[i] = (c->with_bias ? bias[i] : 0) +
                        c->params.input_offset * (row_sum + depth * c->params.filter_offset);
    }
}

static size_t output_bytes(const call_case *c)
{
    return (size_t)c->output_dims.n * c->output_dims.c;
}

static arm_cmsis_nn_status run(const call_case *c, int mve, int8_t *out)
{
    const int32_t bytes = c->output_dims.c * (int32_t)sizeof(int32_t);
    const cmsis_nn_context ctx = {c->sums == 0 ? NULL : kernel_sum, c->sums == 1 ? bytes : (c->sums == 2 ? bytes - 1 : 0)};
    if (c->sums == 2 && mve)
    {
        /* A context too small: the kernel must not read it. Wrong values there would show. */
        kernel_sum[0] += 1000;
    }
    const int32_t *b = c->with_bias ? bias : NULL;
    arm_cmsis_nn_status status;
    if (mve)
    {
        status = helia_mve_fully_connected_s8(&ctx, &c->params, &c->quant, &c->input_dims, input, &c->filter_dims,
                                              filter, &c->bias_dims, b, &c->output_dims, out + GUARD);
    }
    else
    {
        status = arm_fully_connected_s8(&ctx, &c->params, &c->quant, &c->input_dims, input, &c->filter_dims, filter,
                                        &c->bias_dims, b, &c->output_dims, out + GUARD);
    }
    if (c->sums == 2 && mve)
    {
        kernel_sum[0] -= 1000;
    }
    return status;
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    printf("mismatch in call %ld: batches %ld depth %ld rows %ld in_off %ld filter_off %ld out_off %ld act [%ld,%ld] "
           "mult %ld shift %ld bias %d sums %d; first differing byte %ld\n",
           (long)call, (long)c->input_dims.n, (long)c->filter_dims.n, (long)c->output_dims.c,
           (long)c->params.input_offset, (long)c->params.filter_offset, (long)c->params.output_offset,
           (long)c->params.activation.min, (long)c->params.activation.max, (long)c->quant.multiplier,
           (long)c->quant.shift, c->with_bias, c->sums, (long)first_difference - GUARD);
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 8

static void break_contract(call_case *c, int32_t which)
{
    switch (which)
    {
    case 0: c->params.input_offset = 129; break;
    case 1: c->params.filter_offset = -128; break;
    case 2: c->params.output_offset = 128; break;
    case 3: c->quant.shift = 31; break;
    case 4: c->quant.shift = -32; break;
    case 5: c->params.activation.max = 128; break;
    case 6: c->filter_dims.n = 0; break;
    default: c->output_dims.c = 0; break;
    }
}

#include "parity_main.h"
