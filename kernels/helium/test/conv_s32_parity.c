/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (Corstone-300, run on QEMU): random int8 convolutions to int32 sums (filter sizes
 * 1..5, strides 1..3, dilations 1..2, leading and trailing padding, batches, odd pixel and channel
 * counts, a quarter of the calls a 1x1 filter read in place), each run through helia_mve_convolve_s8_s32
 * and through its plain C, helia_convolve_s8_s32, comparing the int32 outputs byte for byte, guard bytes
 * around them included. Half the calls pass the filter row sums, half none. The driver (counts,
 * refusals, result line) is parity_main.h. HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at
 * compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/helium.py reads this list): none, the
 * reference being helia_convolve_s8_s32, the plain C in the Helium kernel's own source */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helia_helium.h"
#include "test_draw.h"

#ifndef HELIA_PARITY_CALLS
#define HELIA_PARITY_CALLS 3000
#endif
#ifndef HELIA_PARITY_SEED
#define HELIA_PARITY_SEED 20261203u
#endif

#define MAX_HW 10
#define MAX_IN_CH 40
#define MAX_CH 24
#define MAX_K 5
#define MAX_BATCH 2
#define MAX_OUT_HW (MAX_HW + 2 * (MAX_K - 1))
#define GUARD 32
#define GUARD_BYTE 0x5A

static int8_t input[MAX_BATCH * MAX_HW * MAX_HW * MAX_IN_CH];
static int8_t filter[MAX_CH * MAX_K * MAX_K * MAX_IN_CH];
static int32_t row_sum[MAX_CH];
/* The scratch the kernel asks for, then guard bytes: a buffer size reported short shows as a write past it. */
static int8_t scratch[2 * MAX_K * MAX_K * MAX_IN_CH + GUARD] __attribute__((aligned(16)));
static int8_t expected[4 * MAX_BATCH * MAX_OUT_HW * MAX_OUT_HW * MAX_CH + 2 * GUARD] __attribute__((aligned(16)));
static int8_t actual[sizeof(expected)] __attribute__((aligned(16)));

typedef struct
{
    cmsis_nn_conv_params params;
    cmsis_nn_dims input_dims, filter_dims, output_dims;
    int with_row_sum;
} call_case;

/* One axis: input size, filter size, stride, dilation, leading padding; the output length (>= 1). */
static void draw_axis(int32_t *in, int32_t *k, int32_t *stride, int32_t *dilation, int32_t *lead, int32_t *out)
{
    do
    {
        *in = between(0, 3) == 0 ? between(1, MAX_HW) : between(1, 6);
        *k = between(1, MAX_K);
        *stride = between(0, 4) == 0 ? 3 : between(1, 2);
        *dilation = between(0, 5) == 0 ? 2 : 1;
        const int32_t span = *dilation * (*k - 1) + 1;
        *lead = between(0, 2) == 0 ? 0 : between(0, span - 1);
        const int32_t trail = between(0, span - 1);
        const int32_t padded = *in + *lead + trail;
        *out = padded < span ? 0 : (padded - span) / *stride + 1;
    } while (*out < 1);
}

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    int32_t h, w, kh, kw, sh, sw, dh, dw, ph, pw, oh, ow;
    draw_axis(&h, &kh, &sh, &dh, &ph, &oh);
    draw_axis(&w, &kw, &sw, &dw, &pw, &ow);
    if (between(0, 3) == 0)
    {
        /* 1x1, stride 1, no padding: the pixels read in place (the hybrid pointwise layers). */
        kh = kw = sh = sw = 1;
        ph = pw = 0;
        oh = h;
        ow = w;
    }
    const int32_t in_ch = between(0, 2) == 0 ? between(1, 3) : between(1, MAX_IN_CH);
    const int32_t channels = between(0, 3) == 0 ? between(1, 3) : between(1, MAX_CH);
    const int32_t batches = between(0, 9) == 0 ? 2 : 1;
    c->input_dims = (cmsis_nn_dims){batches, h, w, in_ch};
    c->filter_dims = (cmsis_nn_dims){channels, kh, kw, in_ch};
    c->output_dims = (cmsis_nn_dims){batches, oh, ow, channels};
    c->params.stride = (cmsis_nn_tile){sw, sh};
    c->params.padding = (cmsis_nn_tile){pw, ph};
    c->params.dilation = (cmsis_nn_tile){dw, dh};
    /* Symmetric hybrid layers have no offset; asymmetric ones minus a zero point in [-128, 127]. */
    const int32_t o = between(0, 3);
    c->params.input_offset = o == 0 ? 0 : (o == 1 ? 128 : (o == 2 ? -127 : between(-127, 128)));
    c->with_row_sum = between(0, 1);

    draw_bytes(input, batches * h * w * in_ch);
    const int32_t depth = kh * kw * in_ch;
    draw_bytes(filter, channels * depth);
    compute_weight_sums(row_sum, filter, channels, depth, NULL, 1);
}

static size_t output_bytes(const call_case *c)
{
    return sizeof(int32_t) * (size_t)c->output_dims.n * c->output_dims.h * c->output_dims.w * c->output_dims.c;
}

static arm_cmsis_nn_status run(const call_case *c, int mve, int8_t *out)
{
    int32_t *const sums = (int32_t *)(void *)(out + GUARD);
    if (mve)
    {
        const cmsis_nn_context ctx = {scratch, helia_mve_convolve_s8_s32_buffer_size(&c->params, &c->input_dims,
                                                                                     &c->filter_dims, &c->output_dims)};
        /* helia_helium.h's promise, which the compiler's arena plan mirrors (ns_cmsis_nn_scratch.py): none
         * when a 1x1 filter at stride 1 without padding reads the input in place. */
        const int in_place = c->filter_dims.h == 1 && c->filter_dims.w == 1 && c->params.stride.h == 1 &&
                             c->params.stride.w == 1 && c->params.padding.h == 0 && c->params.padding.w == 0;
        const int32_t promised = in_place ? 0 : 2 * c->filter_dims.h * c->filter_dims.w * c->input_dims.c;
        if (ctx.size != promised)
        {
            printf("scratch size %ld, %ld promised\n", (long)ctx.size, (long)promised);
            return ARM_CMSIS_NN_FAILURE;
        }
        memset(scratch + ctx.size, GUARD_BYTE, GUARD);
        const arm_cmsis_nn_status status = helia_mve_convolve_s8_s32(&ctx, &c->params, c->with_row_sum ? row_sum : NULL,
                                                                     &c->input_dims, input, &c->filter_dims, filter,
                                                                     &c->output_dims, sums);
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
    return helia_convolve_s8_s32(&c->params, &c->input_dims, input, &c->filter_dims, filter, &c->output_dims, sums);
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    printf("mismatch in call %ld: n %ld in %ldx%ldx%ld filter %ldx%ld out %ldx%ldx%ld stride %ld,%ld pad %ld,%ld "
           "dilation %ld,%ld in_off %ld row_sum %d; first differing byte %ld\n",
           (long)call, (long)c->input_dims.n, (long)c->input_dims.h, (long)c->input_dims.w, (long)c->input_dims.c,
           (long)c->filter_dims.h, (long)c->filter_dims.w, (long)c->output_dims.h, (long)c->output_dims.w,
           (long)c->output_dims.c, (long)c->params.stride.h, (long)c->params.stride.w, (long)c->params.padding.h,
           (long)c->params.padding.w, (long)c->params.dilation.h, (long)c->params.dilation.w,
           (long)c->params.input_offset, c->with_row_sum, (long)first_difference - GUARD);
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 6

static void break_contract(call_case *c, int32_t which)
{
    switch (which)
    {
    case 0: c->filter_dims.c = c->input_dims.c + 1; break; /* grouped */
    case 1: c->params.stride.w = 0; break;
    case 2: c->params.padding.h = -1; break;
    case 3: c->params.input_offset = 129; break;
    case 4: c->params.dilation.h = 0; break;
    default: c->output_dims.c = c->filter_dims.n + 1; break;
    }
}

#include "parity_main.h"
