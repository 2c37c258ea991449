/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the SVDF kernels: runs sequences of calls read from stdin, prints every output. */

/*
 * Built against the portable kernels and, for parity tests, against ns-cmsis-nn (with its float
 * switch). One record per line of input, whitespace-separated integers:
 *
 *   <kind> B I F T R in_offset out_offset in_mult in_shift out_mult out_shift
 *          in_min in_max out_min out_max steps
 *   <count> weights_feature... <count> weights_time... <count> bias... (0: NULL)
 *   <count> initial state... <count> inputs of every step...
 *
 * kind: 0 arm_svdf_s8, 1 arm_svdf_state_s16_s8, 2 arm_svdf_f32 (then the activation bounds and every
 * array value are float32 bit patterns; the offsets and quantization are not read), 3 the buffer
 * sizers of arm_svdf_s8 (only F is read). A record prints, per step, "<status> <count> <outputs...>"
 * (float outputs as bit patterns), then "state <count> <final state...>"; a sizer record prints
 * "<plain> <dsp> <mve>". The same run of calls keeps its state from step to step, as a model does.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "svdf_driver"
#include "driver_io.h"

/* An array of `count` int32 values read from stdin (at least one element allocated). */
static int32_t *rd_array(int32_t *count)
{
    *count = read_int32();
    int32_t *a = malloc((size_t)(*count > 0 ? *count : 1) * sizeof(int32_t));
    if (a == NULL)
    {
        fail("out of memory");
    }
    for (int32_t i = 0; i < *count; ++i)
    {
        a[i] = read_int32();
    }
    return a;
}

static void *narrow(const int32_t *a, int32_t count, size_t size)
{
    unsigned char *out = malloc((size_t)(count > 0 ? count : 1) * size);
    if (out == NULL)
    {
        fail("out of memory");
    }
    for (int32_t i = 0; i < count; ++i)
    {
        if (size == 1)
        {
            ((int8_t *)out)[i] = (int8_t)a[i];
        }
        else if (size == 2)
        {
            ((int16_t *)out)[i] = (int16_t)a[i];
        }
        else
        {
            memcpy(out + (size_t)i * 4, &a[i], 4); /* int32 values or float bit patterns */
        }
    }
    return out;
}

static float bits_to_float(int32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static void print_values(const void *data, int32_t count, size_t size)
{
    printf(" %ld", (long)count);
    for (int32_t i = 0; i < count; ++i)
    {
        long v;
        if (size == 1)
        {
            v = ((const int8_t *)data)[i];
        }
        else if (size == 2)
        {
            v = ((const int16_t *)data)[i];
        }
        else
        {
            int32_t bits;
            memcpy(&bits, (const unsigned char *)data + (size_t)i * 4, 4);
            v = bits;
        }
        printf(" %ld", v);
    }
}

static void run_record(int32_t kind)
{
    const int32_t batches = read_int32(), input_size = read_int32(), features = read_int32(), time = read_int32(),
                  rank = read_int32();
    const int32_t in_offset = read_int32(), out_offset = read_int32(), in_mult = read_int32(), in_shift = read_int32(),
                  out_mult = read_int32(), out_shift = read_int32(), in_min = read_int32(), in_max = read_int32(),
                  out_min = read_int32(), out_max = read_int32(), steps = read_int32();
    if (kind == 3)
    {
        const cmsis_nn_dims wf_dims = {features, input_size, 1, 1};
        printf("%ld %ld %ld\n", (long)arm_svdf_s8_get_buffer_size(&wf_dims),
               (long)arm_svdf_s8_get_buffer_size_dsp(&wf_dims), (long)arm_svdf_s8_get_buffer_size_mve(&wf_dims));
        return;
    }
    int32_t n_wf, n_wt, n_bias, n_state, n_inputs;
    int32_t *wf = rd_array(&n_wf), *wt = rd_array(&n_wt), *bias = rd_array(&n_bias);
    int32_t *state0 = rd_array(&n_state), *inputs = rd_array(&n_inputs);
    const int32_t units = features / rank;
    if (n_wf != features * input_size || n_wt != features * time || n_state != batches * features * time ||
        n_inputs != steps * batches * input_size || (n_bias != 0 && n_bias != units))
    {
        fail("array sizes do not match the dimensions");
    }
    const size_t elem = kind == 0 ? 1 : (kind == 1 ? 2 : 4);
    const size_t act = kind == 2 ? 4 : 1; /* input and output element size */
    void *wf_data = narrow(wf, n_wf, act);
    void *wt_data = narrow(wt, n_wt, elem);
    void *state = narrow(state0, n_state, elem);
    void *in_data = narrow(inputs, n_inputs, act);
    void *bias_data = n_bias ? narrow(bias, n_bias, 4) : NULL; /* int32 values or float bit patterns */
    void *out = malloc((size_t)batches * units * act);
    /* Work buffers filled with junk: the kernels must write before they read. */
    int32_t *work_a = malloc((size_t)batches * features * sizeof(int32_t) + 4);
    int32_t *work_b = malloc((size_t)batches * units * sizeof(int32_t) + 4);
    int32_t *sums = malloc((size_t)features * sizeof(int32_t) + 4);
    if (out == NULL || work_a == NULL || work_b == NULL || sums == NULL)
    {
        fail("out of memory");
    }
    memset(work_a, 0x5a, (size_t)batches * features * sizeof(int32_t));
    memset(work_b, 0xa5, (size_t)batches * units * sizeof(int32_t));
    const cmsis_nn_dims input_dims = {batches, input_size, 1, 1};
    const cmsis_nn_dims state_dims = {batches, features * time, 1, 1};
    const cmsis_nn_dims wf_dims = {features, input_size, 1, 1};
    const cmsis_nn_dims wt_dims = {features, time, 1, 1};
    const cmsis_nn_dims bias_dims = {units, 1, 1, 1};
    const cmsis_nn_dims output_dims = {batches, units, 1, 1};
    const cmsis_nn_context input_ctx = {work_a, batches * features * (int32_t)sizeof(int32_t)};
    const cmsis_nn_context output_ctx = {work_b, batches * units * (int32_t)sizeof(int32_t)};
    for (int32_t s = 0; s < steps; ++s)
    {
        arm_cmsis_nn_status status = ARM_CMSIS_NN_ARG_ERROR;
        memset(out, 0x33, (size_t)batches * units * act);
        const size_t offset = (size_t)s * batches * input_size * act;
        if (kind == 2)
        {
#if defined(ARM_NN_ENABLE_F32) && ARM_NN_ENABLE_F32
            const cmsis_nn_svdf_params_f32 params = {
                rank, {bits_to_float(in_min), bits_to_float(in_max)}, {bits_to_float(out_min), bits_to_float(out_max)}};
            status = arm_svdf_f32(NULL, &input_ctx, &output_ctx, &params, &input_dims,
                                  (const float32_t *)((const unsigned char *)in_data + offset), &state_dims,
                                  (float32_t *)state, &wf_dims, (const float32_t *)wf_data, &wt_dims,
                                  (const float32_t *)wt_data, &bias_dims,
                                  (const float32_t *)bias_data, &output_dims,
                                  (float32_t *)out);
#else
            fail("built without ARM_NN_ENABLE_F32");
#endif
        }
        else
        {
            const cmsis_nn_svdf_params params = {rank, in_offset, out_offset, {in_min, in_max}, {out_min, out_max}};
            const cmsis_nn_per_tensor_quant_params in_quant = {in_mult, in_shift};
            const cmsis_nn_per_tensor_quant_params out_quant = {out_mult, out_shift};
            const int8_t *x = (const int8_t *)in_data + offset;
            if (kind == 0)
            {
                arm_vector_sum_s8(sums, input_size, features, (const int8_t *)wf_data, -in_offset, 0, NULL);
                const cmsis_nn_context ctx = {sums, features * (int32_t)sizeof(int32_t)};
                status = arm_svdf_s8(&ctx, &input_ctx, &output_ctx, &params, &in_quant, &out_quant, &input_dims, x,
                                     &state_dims, (int8_t *)state, &wf_dims, (const int8_t *)wf_data, &wt_dims,
                                     (const int8_t *)wt_data, &bias_dims, (const int32_t *)bias_data, &output_dims,
                                     (int8_t *)out);
            }
            else
            {
                status = arm_svdf_state_s16_s8(&input_ctx, &output_ctx, &params, &in_quant, &out_quant, &input_dims,
                                               x, &state_dims, (int16_t *)state, &wf_dims, (const int8_t *)wf_data,
                                               &wt_dims, (const int16_t *)wt_data, &bias_dims, (const int32_t *)bias_data,
                                               &output_dims, (int8_t *)out);
            }
        }
        printf("%d", (int)status);
        print_values(out, batches * units, act);
        printf("\n");
    }
    printf("state");
    print_values(state, n_state, elem);
    printf("\n");
    free(wf);
    free(wt);
    free(bias);
    free(state0);
    free(inputs);
    free(wf_data);
    free(wt_data);
    free(state);
    free(in_data);
    free(bias_data);
    free(out);
    free(work_a);
    free(work_b);
    free(sums);
}

int main(void)
{
    long long kind;
    while (scanf("%lld", &kind) == 1)
    {
        run_record((int32_t)kind);
    }
    return 0;
}
