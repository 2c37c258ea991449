/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction measurement firmware (Corstone-300, QEMU -icount shift=0): instructions of one warm call
 * of helia_mve_fully_connected_s8 and of the linked kernel library's arm_fully_connected_s8 (ns-cmsis-nn
 * or the portable kernels: same name) on the fully connected layer shapes of the MLPerf Tiny ad01
 * autoencoder and kws's last layer. Each library call's output is compared with ours. One line per layer
 * and entry: "helium bench: layer NAME entry ENTRY instructions N scratch BYTES same_output 0|1". */

/* Portable sources compiled with this firmware (tools/bench_lib/helium.py reads this list):
 * fully_connected/arm_fully_connected_s8.c support/fixed_point.c */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arm_nnfunctions.h"
#include "helia_helium.h"
#include "bench_support.h"
#include "test_draw.h"

typedef struct
{
    const char *name;
    int32_t depth, rows;
} layer;

/* ad01_int8's layers (one line per distinct shape: 128 -> 128 runs six times in the model) and
 * kws_ref_model's last one. */
static const layer layers[] = {
    {"ad01_640_to_128", 640, 128}, {"ad01_128_to_128", 128, 128}, {"ad01_128_to_8", 128, 8},
    {"ad01_8_to_128", 8, 128},     {"ad01_128_to_640", 128, 640}, {"kws_64_to_12", 64, 12},
};

#define MAX_DEPTH 640
#define MAX_ROWS 640

static int8_t input[MAX_DEPTH];
static int8_t filter[128 * 640];
static int32_t bias[MAX_ROWS];
static int32_t kernel_sum[MAX_ROWS];
static int8_t ours[MAX_ROWS];
static int8_t theirs[MAX_ROWS];

typedef enum
{
    ENTRY_HELIUM,
    ENTRY_LIBRARY,
} entry;

static const char *const entry_names[] = {"helia_mve_fully_connected_s8", "arm_fully_connected_s8"};

typedef struct
{
    cmsis_nn_fc_params params;
    cmsis_nn_per_tensor_quant_params quant;
    cmsis_nn_dims input_dims, filter_dims, bias_dims, output_dims;
} call_args;

static arm_cmsis_nn_status call(int e, const void *args, int8_t *out)
{
    const call_args *a = args;
    /* The kernel sums, as a module passes them (ns-cmsis-nn's MVE build reads them; the portable kernel
     * ignores them). */
    const cmsis_nn_context ctx = {kernel_sum, a->output_dims.c * (int32_t)sizeof(int32_t)};
    if (e == ENTRY_HELIUM)
    {
        return helia_mve_fully_connected_s8(&ctx, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims,
                                            filter, &a->bias_dims, bias, &a->output_dims, out);
    }
    return arm_fully_connected_s8(&ctx, &a->params, &a->quant, &a->input_dims, input, &a->filter_dims, filter,
                                  &a->bias_dims, bias, &a->output_dims, out);
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
        a.params.input_offset = 128; /* zero point -128 */
        a.params.filter_offset = 0;
        a.params.output_offset = -128;
        a.params.activation.min = -128;
        a.params.activation.max = 127;
        a.quant.multiplier = (int32_t)(0x40000000u + next() % 0x3FFFFFFFu);
        a.quant.shift = -(int32_t)(7 + next() % 4u);
        a.input_dims = (cmsis_nn_dims){1, 1, 1, y->depth};
        a.filter_dims = (cmsis_nn_dims){y->depth, 1, 1, y->rows};
        a.bias_dims = (cmsis_nn_dims){1, 1, 1, y->rows};
        a.output_dims = (cmsis_nn_dims){1, 1, 1, y->rows};
        for (int32_t i = 0; i < y->depth; ++i)
        {
            input[i] = (int8_t)next();
        }
        for (int32_t i = 0; i < y->rows * y->depth; ++i)
        {
            filter[i] = (int8_t)((int32_t)(next() % 255u) - 127);
        }
        for (int32_t i = 0; i < y->rows; ++i)
        {
            bias[i] = (int32_t)(next() % 20001u) - 10000;
        }
        compute_weight_sums(kernel_sum, filter, y->rows, y->depth, bias, a.params.input_offset);
        const int32_t scratch_bytes[] = {0, 0};
        failures += bench_layer(y->name, call, &a, entry_names, scratch_bytes, ENTRY_LIBRARY + 1, (size_t)y->rows,
                                ours, theirs, overhead);
    }
    printf("helium bench: done, %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
