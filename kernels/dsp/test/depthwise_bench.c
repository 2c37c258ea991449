/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction measurement firmware (Cortex-M4 on QEMU mps2-an386, -icount shift=0): instructions of one
 * warm call of helia_dsp_depthwise_conv_3x3_s8 and of the linked kernel library's int8 depthwise entries
 * (ns-cmsis-nn or the portable kernels: same names) on the depthwise layer shapes of the MLPerf Tiny
 * kws and vww models. Each library call's output is compared with ours. One line per layer and entry:
 * "dsp bench: layer NAME entry ENTRY instructions N scratch BYTES same_output 0|1". */

/* Portable sources compiled with this firmware (tools/bench_lib/own_kernels.py reads this list):
 * depthwise/arm_depthwise_conv_3x3_s8.c depthwise/arm_depthwise_conv_s8.c
 * depthwise/arm_depthwise_conv_s8_opt.c depthwise/arm_depthwise_convolve_weight_sum.c
 * depthwise/arm_depthwise_conv_get_buffer_sizes_s8.c depthwise/depthwise_core.c
 * support/fixed_point.c */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arm_nnfunctions.h"
#include "helia_dsp.h"
#define HELIA_TEST_FAMILY "dsp"
#include "../../helium/test/bench_support.h"
#include "../../helium/test/test_random.h"

typedef struct
{
    const char *name;
    int32_t h, w, c, stride, pad, out_h, out_w;
} layer;

/* kws_ref_model (four equal layers) and vww_96_int8's thirteen (eight distinct shapes); TFLite SAME
 * padding: leading 1 at stride 1, 0 at stride 2. */
static const layer layers[] = {
    {"kws_25x5x64_s1", 25, 5, 64, 1, 1, 25, 5},
    {"vww_48x48x8_s1", 48, 48, 8, 1, 1, 48, 48},
    {"vww_48x48x16_s2", 48, 48, 16, 2, 0, 24, 24},
    {"vww_24x24x32_s1", 24, 24, 32, 1, 1, 24, 24},
    {"vww_24x24x32_s2", 24, 24, 32, 2, 0, 12, 12},
    {"vww_12x12x64_s1", 12, 12, 64, 1, 1, 12, 12},
    {"vww_12x12x64_s2", 12, 12, 64, 2, 0, 6, 6},
    {"vww_6x6x128_s1", 6, 6, 128, 1, 1, 6, 6},
    {"vww_6x6x128_s2", 6, 6, 128, 2, 0, 3, 3},
    {"vww_3x3x256_s1", 3, 3, 256, 1, 1, 3, 3},
};

#define MAX_IN (48 * 48 * 16)
#define MAX_OUT (48 * 48 * 16)
#define MAX_CH 256

static int8_t input[MAX_IN];
static int8_t filter[9 * MAX_CH];
static int32_t bias[MAX_CH];
static int32_t multiplier[MAX_CH];
static int32_t shift[MAX_CH];
static int32_t weight_sum[MAX_CH];
static int8_t ours[MAX_OUT];
static int8_t theirs[MAX_OUT];
/* _opt's scratch (ns-cmsis-nn's DSP build asks for 2 * channels * kernel taps bytes: 4,608 at 256; ample here). */
static int8_t scratch[16384] __attribute__((aligned(16)));

typedef enum
{
    ENTRY_DSP,
    ENTRY_3X3,
    ENTRY_OPT,
    ENTRY_GENERIC,
} entry;

static const char *const entry_names[] = {"helia_dsp_depthwise_conv_3x3_s8", "arm_depthwise_conv_3x3_s8",
                                          "arm_depthwise_conv_s8_opt", "arm_depthwise_conv_s8"};

typedef struct
{
    cmsis_nn_dw_conv_params params;
    cmsis_nn_per_channel_quant_params quant;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
} call_args;

static arm_cmsis_nn_status call(int e, const void *args, int8_t *out)
{
    const call_args *a = args;
    const cmsis_nn_context ctx = {scratch, (int32_t)sizeof(scratch)};
    const cmsis_nn_context sums = {weight_sum, (int32_t)sizeof(weight_sum)};
    switch (e)
    {
    case ENTRY_DSP:
        return helia_dsp_depthwise_conv_3x3_s8(NULL, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims,
                                               filter, &a->bias_dims, bias, &a->output_dims, out);
    case ENTRY_3X3:
        return arm_depthwise_conv_3x3_s8(&ctx, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims, filter,
                                         &a->bias_dims, bias, &a->output_dims, out);
    case ENTRY_OPT:
        return arm_depthwise_conv_s8_opt(&ctx, &sums, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims,
                                         filter, &a->bias_dims, bias, &a->output_dims, out);
    default:
        return arm_depthwise_conv_s8(&ctx, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims, filter,
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
        a.params.ch_mult = 1;
        a.params.stride = (cmsis_nn_tile){y->stride, y->stride};
        a.params.padding = (cmsis_nn_tile){y->pad, y->pad};
        a.params.dilation = (cmsis_nn_tile){1, 1};
        a.params.input_offset = 128; /* zero point -128, as in both models */
        a.params.output_offset = -128;
        a.params.activation.min = -128;
        a.params.activation.max = 127;
        a.quant.multiplier = multiplier;
        a.quant.shift = shift;
        a.input_dims = (cmsis_nn_dims){1, y->h, y->w, y->c};
        a.filter_dims = (cmsis_nn_dims){1, 3, 3, y->c};
        a.bias_dims = (cmsis_nn_dims){1, 1, 1, y->c};
        a.output_dims = (cmsis_nn_dims){1, y->out_h, y->out_w, y->c};
        for (int32_t i = 0; i < y->h * y->w * y->c; ++i)
        {
            input[i] = (int8_t)next();
        }
        for (int32_t i = 0; i < 9 * y->c; ++i)
        {
            filter[i] = (int8_t)((int32_t)(next() % 255u) - 127);
        }
        for (int32_t i = 0; i < y->c; ++i)
        {
            bias[i] = (int32_t)(next() % 20001u) - 10000;
            multiplier[i] = (int32_t)(0x40000000u + next() % 0x3FFFFFFFu);
            shift[i] = -(int32_t)(7 + next() % 4u);
        }
        (void)arm_depthwise_convolve_weight_sum(weight_sum, NULL, filter, &a.params, &a.input_dims, &a.filter_dims,
                                                &a.output_dims, a.params.input_offset, bias);
        const size_t bytes = (size_t)y->out_h * y->out_w * y->c;
        const int32_t opt_scratch = arm_depthwise_conv_s8_opt_get_buffer_size(&a.input_dims, &a.filter_dims);
        const int32_t scratch_bytes[] = {0, 0, opt_scratch, 0};
        failures += bench_layer(y->name, call, &a, entry_names, scratch_bytes, ENTRY_GENERIC + 1, bytes, ours, theirs,
                                overhead);
    }
    printf("dsp bench: done, %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
