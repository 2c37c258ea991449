/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction measurement firmware (Cortex-M4 on QEMU mps2-an386, -icount shift=0): instructions of one
 * warm call of helia_dsp_convolve_s8 (no scratch) and of the linked kernel library's arm_convolve_s8
 * (with the scratch it asks for) and arm_convolve_wrapper_s8 (ns-cmsis-nn or the portable kernels: same
 * names) on the general convolution layers of the MLPerf Tiny models: kws's first layer, vww's first
 * layer and resnet's five 3x3 layers after its first. Each library call's output is compared with
 * ours. One line per layer and entry: "dsp bench: layer NAME entry ENTRY instructions N scratch BYTES
 * same_output 0|1". */

/* Portable sources compiled with this firmware (tools/bench_lib/own_kernels.py reads this list):
 * convolution/arm_convolve_s8.c convolution/arm_convolve_get_buffer_sizes_s8.c
 * convolution/arm_convolve_wrapper_s8.c convolution/arm_convolve_1x1_s8.c
 * convolution/arm_convolve_1x1_s8_fast.c convolution/arm_convolve_1_x_n_s8.c
 * convolution/conv_shape_rules.c convolution/conv_core.c support/fixed_point.c */

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
    int32_t h, w, in_c, out_c, kh, kw, stride, pad_h, pad_w, out_h, out_w;
} layer;

/* TFLite SAME padding: the leading part of (out - 1) * stride + k - in. */
static const layer layers[] = {
    {"kws_49x10x1_10x4_s2", 49, 10, 1, 64, 10, 4, 2, 4, 1, 25, 5},
    {"vww_96x96x3_3x3_s2", 96, 96, 3, 8, 3, 3, 2, 0, 0, 48, 48},
    {"resnet_32x32x16_3x3", 32, 32, 16, 16, 3, 3, 1, 1, 1, 32, 32},
    {"resnet_32x32x16_3x3_s2", 32, 32, 16, 32, 3, 3, 2, 0, 0, 16, 16},
    {"resnet_16x16x32_3x3", 16, 16, 32, 32, 3, 3, 1, 1, 1, 16, 16},
    {"resnet_16x16x32_3x3_s2", 16, 16, 32, 64, 3, 3, 2, 0, 0, 8, 8},
    {"resnet_8x8x64_3x3", 8, 8, 64, 64, 3, 3, 1, 1, 1, 8, 8},
};

#define MAX_IN (96 * 96 * 3)
#define MAX_OUT (48 * 48 * 8)
#define MAX_CH 64
#define MAX_DEPTH (3 * 3 * 64)

static int8_t input[MAX_IN];
static int8_t filter[MAX_CH * MAX_DEPTH];
static int32_t bias[MAX_CH];
static int32_t multiplier[MAX_CH];
static int32_t shift[MAX_CH];
static int32_t weight_sum[MAX_CH];
static int8_t ours[MAX_OUT];
static int8_t theirs[MAX_OUT];
/* The library's scratch: two columns of int16 on ns-cmsis-nn's DSP build (4 * depth bytes), ample here. */
static int8_t scratch[4 * MAX_DEPTH + 64] __attribute__((aligned(16)));

typedef enum
{
    ENTRY_DSP,
    ENTRY_CONVOLVE,
    ENTRY_WRAPPER,
} entry;

static const char *const entry_names[] = {"helia_dsp_convolve_s8", "arm_convolve_s8", "arm_convolve_wrapper_s8"};

typedef struct
{
    cmsis_nn_conv_params params;
    cmsis_nn_per_channel_quant_params quant;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
    int32_t scratch_bytes[3];
} call_args;

static arm_cmsis_nn_status call(int e, const void *args, int8_t *out)
{
    const call_args *a = args;
    const cmsis_nn_context ctx = {scratch, a->scratch_bytes[e]};
    const cmsis_nn_context sums = {weight_sum, a->output_dims.c * (int32_t)sizeof(int32_t)};
    switch (e)
    {
    case ENTRY_DSP:
        return helia_dsp_convolve_s8(NULL, &sums, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims,
                                     filter, &a->bias_dims, bias, &a->output_dims, out);
    case ENTRY_CONVOLVE:
        return arm_convolve_s8(&ctx, &sums, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims, filter,
                               &a->bias_dims, bias, NULL, &a->output_dims, out);
    default:
        return arm_convolve_wrapper_s8(&ctx, &sums, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims,
                                       filter, &a->bias_dims, bias, &a->output_dims, out);
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
        a.params.stride = (cmsis_nn_tile){y->stride, y->stride};
        a.params.padding = (cmsis_nn_tile){y->pad_w, y->pad_h};
        a.params.dilation = (cmsis_nn_tile){1, 1};
        a.params.input_offset = 128; /* zero point -128, as in the models */
        a.params.output_offset = -128;
        a.params.activation.min = -128;
        a.params.activation.max = 127;
        a.quant.multiplier = multiplier;
        a.quant.shift = shift;
        a.input_dims = (cmsis_nn_dims){1, y->h, y->w, y->in_c};
        a.filter_dims = (cmsis_nn_dims){y->out_c, y->kh, y->kw, y->in_c};
        a.bias_dims = (cmsis_nn_dims){1, 1, 1, y->out_c};
        a.output_dims = (cmsis_nn_dims){1, y->out_h, y->out_w, y->out_c};
        a.scratch_bytes[ENTRY_DSP] = 0;
        a.scratch_bytes[ENTRY_CONVOLVE] = arm_convolve_s8_get_buffer_size(&a.input_dims, &a.filter_dims);
        a.scratch_bytes[ENTRY_WRAPPER] =
            arm_convolve_wrapper_s8_get_buffer_size(&a.params, &a.input_dims, &a.filter_dims, &a.output_dims);
        const int32_t depth = y->kh * y->kw * y->in_c;
        for (int32_t i = 0; i < y->h * y->w * y->in_c; ++i)
        {
            input[i] = (int8_t)next();
        }
        for (int32_t i = 0; i < y->out_c * depth; ++i)
        {
            filter[i] = (int8_t)((int32_t)(next() % 255u) - 127);
        }
        for (int32_t i = 0; i < y->out_c; ++i)
        {
            bias[i] = (int32_t)(next() % 20001u) - 10000;
            multiplier[i] = (int32_t)(0x40000000u + next() % 0x3FFFFFFFu);
            shift[i] = -(int32_t)(7 + next() % 4u);
        }
        compute_weight_sums(weight_sum, filter, y->out_c, depth, bias, a.params.input_offset);
        const size_t bytes = (size_t)y->out_h * y->out_w * y->out_c;
        failures += bench_layer(y->name, call, &a, entry_names, a.scratch_bytes, ENTRY_WRAPPER + 1, bytes, ours,
                                theirs, overhead);
    }
    printf("dsp bench: done, %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
