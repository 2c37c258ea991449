/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (Corstone-300, run on QEMU): random int16 transposed convolutions (filters 1..5 per
 * axis, strides 1..3, leading padding below the filter size, output sizes up to the full reach and
 * cropped, batches, channel counts of every remainder mod 4, some filters past the int32 bound of 511
 * values per output channel), each run through helia_mve_transpose_conv_s16 and through its plain C,
 * helia_transpose_conv_s16, comparing the int16 outputs byte for byte, guard bytes around them included.
 * Inputs and weights reach int16's and int8's extremes; int64 biases up to 2^40 or none; multipliers
 * rounded to 16 bits and right shifts 1..46 as the compiler makes them; output offsets and clamps
 * random. The driver (counts, refusals, result line) is parity_main.h. HELIA_PARITY_CALLS and
 * HELIA_PARITY_SEED may be set at compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/helium.py reads this list): none, the
 * reference being helia_transpose_conv_s16, the plain C in the Helium kernel's own source */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helia_helium.h"
#include "test_draw.h"

#ifndef HELIA_PARITY_CALLS
#define HELIA_PARITY_CALLS 3000
#endif
#ifndef HELIA_PARITY_SEED
#define HELIA_PARITY_SEED 20261206u
#endif

#define MAX_HW 6
#define MAX_IN_CH 24
#define MAX_CH 70
#define MAX_K 5
#define MAX_STRIDE 3
#define MAX_BATCH 2
#define MAX_OUT_HW ((MAX_HW - 1) * MAX_STRIDE + MAX_K)
#define GUARD 32
#define GUARD_BYTE 0x5A

static int16_t input[MAX_BATCH * MAX_HW * MAX_HW * MAX_IN_CH];
static int8_t filter[MAX_CH * MAX_K * MAX_K * MAX_IN_CH];
static int64_t bias[MAX_CH];
static int32_t multiplier[MAX_CH];
static int32_t shift[MAX_CH];
static int8_t expected[2 * MAX_BATCH * MAX_OUT_HW * MAX_OUT_HW * MAX_CH + 2 * GUARD] __attribute__((aligned(16)));
static int8_t actual[sizeof(expected)] __attribute__((aligned(16)));

typedef struct
{
    cmsis_nn_transpose_conv_params params;
    cmsis_nn_dims input_dims, filter_dims, output_dims;
    int with_bias;
    int null_input;
} call_case;

/* One axis: input size, filter size, stride, leading padding and output size. */
static void draw_axis(int32_t *in, int32_t *k, int32_t *stride, int32_t *pad, int32_t *out)
{
    *in = between(1, MAX_HW);
    *k = between(1, MAX_K);
    *stride = between(1, MAX_STRIDE);
    *pad = between(0, *k - 1);
    const int32_t reach = (*in - 1) * *stride + *k; /* every output some input reaches, unpadded */
    const int32_t kind = between(0, 2);
    *out = kind == 0 ? reach - *pad : (kind == 1 ? *in * *stride : between(1, reach));
    *out = *out < 1 ? 1 : (*out > MAX_OUT_HW ? MAX_OUT_HW : *out);
}

static int16_t draw_input(void)
{
    const int32_t kind = between(0, 9);
    return (int16_t)(kind == 0 ? INT16_MIN : (kind == 1 ? INT16_MAX : between(INT16_MIN, INT16_MAX)));
}

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    int32_t ih, iw, kh, kw, sh, sw, ph, pw, oh, ow;
    draw_axis(&ih, &kh, &sh, &ph, &oh);
    draw_axis(&iw, &kw, &sw, &pw, &ow);
    const int32_t batches = between(0, 4) == 0 ? 2 : 1;
    const int32_t in_ch = between(0, 4) == 0 ? between(9, MAX_IN_CH) : between(1, 8);
    const int32_t out_ch = between(0, 2) == 0 ? between(1, MAX_CH) : between(1, 9);
    c->input_dims = (cmsis_nn_dims){batches, ih, iw, in_ch};
    c->filter_dims = (cmsis_nn_dims){out_ch, kh, kw, in_ch};
    c->output_dims = (cmsis_nn_dims){batches, oh, ow, out_ch};
    c->params.stride.h = sh;
    c->params.stride.w = sw;
    c->params.padding.h = ph;
    c->params.padding.w = pw;
    c->params.dilation.h = 1;
    c->params.dilation.w = 1;
    c->params.output_offset = between(0, 2) == 0 ? between(-100, 100) : 0;
    if (between(0, 2) == 0)
    {
        c->params.activation.min = INT16_MIN;
        c->params.activation.max = INT16_MAX;
    }
    else
    {
        const int32_t a = between(INT16_MIN, INT16_MAX);
        const int32_t b = between(INT16_MIN, INT16_MAX);
        c->params.activation.min = a < b ? a : b;
        c->params.activation.max = a < b ? b : a;
    }
    for (int32_t i = 0; i < batches * ih * iw * in_ch; ++i)
    {
        input[i] = draw_input();
    }
    draw_bytes(filter, out_ch * kh * kw * in_ch);
    c->with_bias = between(0, 3) != 0;
    const int32_t bias_bits = between(0, 40);
    for (int32_t ch = 0; ch < out_ch; ++ch)
    {
        bias[ch] = (int64_t)(int32_t)next() * 512 / ((int64_t)1 << (40 - bias_bits));
        /* The compiler's multipliers rounded to 16 bits (up to 0x7FFF) and right shifts 15 - shift. */
        multiplier[ch] = between(0, 9) == 0 ? 0x7FFF : between(1 << 14, 0x7FFF);
        const int32_t s = between(0, 9);
        shift[ch] = s == 0 ? 1 : (s == 1 ? 46 : between(15, 40));
    }
}

static size_t output_bytes(const call_case *c)
{
    return sizeof(int16_t) * (size_t)(c->output_dims.n * c->output_dims.h * c->output_dims.w * c->output_dims.c);
}

static arm_cmsis_nn_status run(const call_case *c, int mve, int8_t *out)
{
    const cmsis_nn_per_channel_quant_params quant = {multiplier, shift};
    int16_t *dst = (int16_t *)(void *)(out + GUARD);
    const int16_t *x = c->null_input ? NULL : input;
    const int64_t *b = c->with_bias ? bias : NULL;
    return mve ? helia_mve_transpose_conv_s16(&c->params, &quant, &c->input_dims, x, &c->filter_dims, filter, b,
                                              &c->output_dims, dst)
               : helia_transpose_conv_s16(&c->params, &quant, &c->input_dims, x, &c->filter_dims, filter, b,
                                          &c->output_dims, dst);
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    printf("mismatch in call %ld: input %ldx%ldx%ldx%ld, filter %ldx%ldx%ldx%ld, output %ldx%ldx%ld, stride %ld,%ld, "
           "pad %ld,%ld%s; first differing byte %ld\n",
           (long)call, (long)c->input_dims.n, (long)c->input_dims.h, (long)c->input_dims.w, (long)c->input_dims.c,
           (long)c->filter_dims.n, (long)c->filter_dims.h, (long)c->filter_dims.w, (long)c->filter_dims.c,
           (long)c->output_dims.h, (long)c->output_dims.w, (long)c->output_dims.c, (long)c->params.stride.h,
           (long)c->params.stride.w, (long)c->params.padding.h, (long)c->params.padding.w,
           c->with_bias ? "" : ", no bias", (long)first_difference - GUARD);
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 5

static void break_contract(call_case *c, int32_t which)
{
    switch (which)
    {
    case 0: c->params.input_offset = 1; break;
    case 1: c->params.stride.w = 0; break;
    case 2: c->filter_dims.c += 1; break;
    case 3: c->output_dims.c += 1; break;
    default: c->null_input = 1; break;
    }
}

#include "parity_main.h"
