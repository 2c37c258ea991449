/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction measurement firmware (Cortex-M4, QEMU mps2-an386 -icount shift=0): instructions of one warm
 * call of helia_dsp_convolve_1x1_s8 and of the linked kernel library's int8 1x1 convolution entries
 * (ns-cmsis-nn's DSP build or the portable kernels: same names) on the pointwise layer shapes of the
 * MLPerf Tiny kws and vww models. Each library call's output is compared with ours. Our kernel gets no
 * weight sums (DSP-core modules pass none); the libraries get them, as arm_convolve_1x1_s8_fast's MVE
 * build wants (the DSP build and the portable kernels do not read them). One line per layer and entry:
 * "dsp bench: layer NAME entry ENTRY instructions N scratch BYTES same_output 0|1". */

/* Portable sources compiled with this firmware (tools/bench_lib/own_kernels.py reads this list):
 * convolution/arm_convolve_1x1_s8_fast.c convolution/arm_convolve_1x1_s8.c convolution/conv_core.c
 * support/fixed_point.c */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arm_nnfunctions.h"
#include "helia_dsp.h"
#define HELIA_TEST_FAMILY "dsp"
#include "../../helium/test/bench_support.h"
#include "../../helium/test/test_draw.h"

typedef struct
{
    const char *name;
    int32_t h, w, depth, channels;
} layer;

/* kws_ref_model's four equal pointwise layers and vww_96_int8's (one line per distinct shape; its
 * 48x48x8 -> 16 layer also as one of the seven-row bands it runs in when the compiler runs its first
 * layers in patches). */
static const layer layers[] = {
    {"kws_25x5x64_to_64", 25, 5, 64, 64},     {"vww_48x48x8_to_16", 48, 48, 8, 16},
    {"vww_7x48x8_to_16_band", 7, 48, 8, 16},
    {"vww_24x24x16_to_32", 24, 24, 16, 32},   {"vww_24x24x32_to_32", 24, 24, 32, 32},
    {"vww_12x12x32_to_64", 12, 12, 32, 64},   {"vww_12x12x64_to_64", 12, 12, 64, 64},
    {"vww_6x6x64_to_128", 6, 6, 64, 128},     {"vww_6x6x128_to_128", 6, 6, 128, 128},
    {"vww_3x3x128_to_256", 3, 3, 128, 256},   {"vww_3x3x256_to_256", 3, 3, 256, 256},
};

#define MAX_IN (48 * 48 * 16)
#define MAX_OUT (48 * 48 * 16)
#define MAX_CH 256

static int8_t input[MAX_IN];
static int8_t filter[MAX_CH * MAX_CH];
static int32_t bias[MAX_CH];
static int32_t multiplier[MAX_CH];
static int32_t shift[MAX_CH];
static int32_t weight_sum[MAX_CH];
static int8_t ours[MAX_OUT];
static int8_t theirs[MAX_OUT];

typedef enum
{
    ENTRY_OURS,
    ENTRY_FAST,
    ENTRY_GENERAL,
} entry;

static const char *const entry_names[] = {"helia_dsp_convolve_1x1_s8", "arm_convolve_1x1_s8_fast",
                                          "arm_convolve_1x1_s8"};

typedef struct
{
    cmsis_nn_conv_params params;
    cmsis_nn_per_channel_quant_params quant;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
} call_args;

static arm_cmsis_nn_status call(int e, const void *args, int8_t *out)
{
    const call_args *a = args;
    /* Neither entry asks for scratch on these shapes (no padding, stride 1). */
    const cmsis_nn_context ctx = {NULL, 0};
    const cmsis_nn_context sums = {weight_sum, a->output_dims.c * (int32_t)sizeof(int32_t)};
    const cmsis_nn_context no_sums = {NULL, 0};
    switch (e)
    {
    case ENTRY_OURS:
        return helia_dsp_convolve_1x1_s8(&ctx, &no_sums, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims,
                                         filter, &a->bias_dims, bias, &a->output_dims, out);
    case ENTRY_FAST:
        return arm_convolve_1x1_s8_fast(&ctx, &sums, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims,
                                        filter, &a->bias_dims, bias, &a->output_dims, out);
    default:
        return arm_convolve_1x1_s8(&ctx, &sums, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims, filter,
                                   &a->bias_dims, bias, &a->output_dims, out);
    }
}

int main(void)
{
    rng_state = 12345u;
    helia_counter_start();
    const uint64_t overhead = helia_counter_instructions();
    int failures = 0;
    for (size_t l = 0; l < sizeof(layers) / sizeof(layers[0]); ++l)
    {
        const layer *y = &layers[l];
        call_args a;
        memset(&a, 0, sizeof(a));
        a.params.stride = (cmsis_nn_tile){1, 1};
        a.params.padding = (cmsis_nn_tile){0, 0};
        a.params.dilation = (cmsis_nn_tile){1, 1};
        a.params.input_offset = 128; /* zero point -128, as in both models */
        a.params.output_offset = -128;
        a.params.activation.min = -128;
        a.params.activation.max = 127;
        a.quant.multiplier = multiplier;
        a.quant.shift = shift;
        a.input_dims = (cmsis_nn_dims){1, y->h, y->w, y->depth};
        a.filter_dims = (cmsis_nn_dims){y->channels, 1, 1, y->depth};
        a.bias_dims = (cmsis_nn_dims){1, 1, 1, y->channels};
        a.output_dims = (cmsis_nn_dims){1, y->h, y->w, y->channels};
        for (int32_t i = 0; i < y->h * y->w * y->depth; ++i)
        {
            input[i] = (int8_t)next();
        }
        for (int32_t i = 0; i < y->channels * y->depth; ++i)
        {
            filter[i] = (int8_t)((int32_t)(next() % 255u) - 127);
        }
        for (int32_t i = 0; i < y->channels; ++i)
        {
            bias[i] = (int32_t)(next() % 20001u) - 10000;
            multiplier[i] = (int32_t)(0x40000000u + next() % 0x3FFFFFFFu);
            shift[i] = -(int32_t)(7 + next() % 4u);
        }
        compute_weight_sums(weight_sum, filter, y->channels, y->depth, bias, a.params.input_offset);
        const size_t bytes = (size_t)y->h * y->w * y->channels;
        const int32_t scratch_bytes[] = {0, 0, 0};
        failures += bench_layer(y->name, call, &a, entry_names, scratch_bytes, ENTRY_GENERAL + 1, bytes, ours, theirs,
                                overhead);
    }
    printf("dsp bench: done, %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
