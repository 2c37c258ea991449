/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the LSTM kernels: reads calls as integers on stdin, prints status and outputs. */

/*
 * Built against the portable kernels and (for parity tests) against ns-cmsis-nn, both with
 * ARM_NN_ENABLE_F32. One call per record, first the record's name, then integers:
 *
 *   lstm_s8  <layer> <calls> <stateful> then <calls> input arrays, hidden state, cell state
 *   step_s8  <layer> <batch_offset> data_in, hidden_in (count 0: NULL), cell state
 *   lstm_f32 / step_f32: the same with float32 values as the int32 reading of their bits
 *   vecmat   <cols> <rows> <batches> <batch_offset> <mult> <shift> lhs, rhs, bias, dst
 *   mulacc   <mult> <shift> <min> <max> in1, in2, out (the same count)
 *   muls8    <block> <batches> <batch_offset> <offset> <mult> <shift> in1, in2
 *
 * <layer> is: time_major batch steps input_size hidden input_offset forget_to_cell_mult/shift
 * input_to_cell_mult/shift cell_clip cell_scale_power output_mult/shift/offset, then per gate
 * (forget, input, cell, output) input_mult/shift hidden_mult/shift activation and its four arrays
 * (input weights, input effective bias, hidden weights, hidden effective bias); float layers have
 * time_major batch steps input_size hidden cell_clip and per gate activation and three arrays
 * (input weights, hidden weights, bias; count 0: NULL). Arrays are "<count> <values...>".
 *
 * Each record prints one line: "<status> <values...>": every call's output, then the hidden
 * state and the cell state as they are afterwards. Outputs start filled with a fixed pattern, so
 * elements a kernel leaves alone compare equal too.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "lstm_driver"
#include "driver_io.h"
#ifdef DRIVER_NS_CMSIS_NN
    #include "arm_nnsupportfunctions.h"
#endif

#if !ARM_NN_ENABLE_F32
    #error "lstm_driver.c is built with ARM_NN_ENABLE_F32=1"
#endif

#define MAX_ARRAYS 64

static void *allocated[MAX_ARRAYS];
static int allocated_count;

static void *keep(size_t bytes)
{
    if (allocated_count == MAX_ARRAYS)
    {
        fail("too many arrays in one record");
    }
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL)
    {
        fail("out of memory");
    }
    allocated[allocated_count++] = p;
    return p;
}

static void release_all(void)
{
    while (allocated_count > 0)
    {
        free(allocated[--allocated_count]);
    }
}

/* "<count> <values...>" into a fresh array of elements of `size` bytes; NULL for count 0. */
static void *rd_array(size_t size, int32_t *count_out)
{
    const int32_t count = read_int32();
    if (count < 0)
    {
        fail("negative count");
    }
    if (count_out != NULL)
    {
        *count_out = count;
    }
    if (count == 0)
    {
        return NULL;
    }
    void *p = keep((size_t)count * size);
    for (int32_t i = 0; i < count; ++i)
    {
        const int32_t v = read_int32();
        if (size == 1)
        {
            ((int8_t *)p)[i] = (int8_t)v;
        }
        else if (size == 2)
        {
            ((int16_t *)p)[i] = (int16_t)v;
        }
        else
        {
            ((int32_t *)p)[i] = v;
        }
    }
    return p;
}

static void *filled(size_t bytes)
{
    void *p = keep(bytes);
    memset(p, 0x5A, bytes);
    return p;
}

static void print_s8(const int8_t *p, int32_t n)
{
    for (int32_t i = 0; i < n; ++i)
    {
        printf(" %d", p[i]);
    }
}

static void print_s16(const int16_t *p, int32_t n)
{
    for (int32_t i = 0; i < n; ++i)
    {
        printf(" %d", p[i]);
    }
}

static void print_f32(const float *p, int32_t n)
{
    for (int32_t i = 0; i < n; ++i)
    {
        int32_t bits;
        memcpy(&bits, &p[i], sizeof(bits));
        printf(" %d", bits);
    }
}

static void rd_layer_s8(cmsis_nn_lstm_params *p)
{
    p->time_major = read_int32();
    p->batch_size = read_int32();
    p->time_steps = read_int32();
    p->input_size = read_int32();
    p->hidden_size = read_int32();
    p->input_offset = read_int32();
    p->forget_to_cell_multiplier = read_int32();
    p->forget_to_cell_shift = read_int32();
    p->input_to_cell_multiplier = read_int32();
    p->input_to_cell_shift = read_int32();
    p->cell_clip = read_int32();
    p->cell_scale_power = read_int32();
    p->output_multiplier = read_int32();
    p->output_shift = read_int32();
    p->output_offset = read_int32();
    cmsis_nn_lstm_gate *gates[4] = {&p->forget_gate, &p->input_gate, &p->cell_gate, &p->output_gate};
    for (int g = 0; g < 4; ++g)
    {
        cmsis_nn_lstm_gate *gate = gates[g];
        gate->input_multiplier = read_int32();
        gate->input_shift = read_int32();
        gate->hidden_multiplier = read_int32();
        gate->hidden_shift = read_int32();
        gate->activation_type = (arm_nn_activation_type)read_int32();
        gate->input_weights = rd_array(1, NULL);
        gate->input_effective_bias = rd_array(4, NULL);
        gate->hidden_weights = rd_array(1, NULL);
        gate->hidden_effective_bias = rd_array(4, NULL);
        gate->bias = NULL;
    }
}

static void rd_layer_f32(cmsis_nn_lstm_params_f32 *p)
{
    p->time_major = read_int32();
    p->batch_size = read_int32();
    p->time_steps = read_int32();
    p->input_size = read_int32();
    p->hidden_size = read_int32();
    const int32_t clip_bits = read_int32();
    memcpy(&p->cell_clip, &clip_bits, sizeof(clip_bits));
    cmsis_nn_lstm_gate_f32 *gates[4] = {&p->forget_gate, &p->input_gate, &p->cell_gate, &p->output_gate};
    for (int g = 0; g < 4; ++g)
    {
        cmsis_nn_lstm_gate_f32 *gate = gates[g];
        gate->activation_type = (arm_nn_activation_type_flt)read_int32();
        gate->input_weights = rd_array(4, NULL);
        gate->hidden_weights = rd_array(4, NULL);
        gate->bias = rd_array(4, NULL);
    }
}

static void run_lstm_s8(void)
{
    cmsis_nn_lstm_params p;
    rd_layer_s8(&p);
    const int32_t calls = read_int32();
    const int32_t stateful = read_int32();
    const int32_t state_size = p.batch_size * p.hidden_size;
    const int32_t out_size = p.batch_size * p.time_steps * p.hidden_size;
    const int8_t *inputs[16];
    if (calls < 1 || calls > 16)
    {
        fail("1 to 16 calls");
    }
    for (int32_t c = 0; c < calls; ++c)
    {
        inputs[c] = rd_array(1, NULL);
    }
    int8_t *hidden = rd_array(1, NULL);
    int16_t *cell = rd_array(2, NULL);
    cmsis_nn_lstm_context ctx = {filled((size_t)state_size * 2), filled((size_t)state_size * 2), cell,
                                 stateful ? hidden : NULL};
    int8_t *output = filled((size_t)out_size * calls);
    arm_cmsis_nn_status status = ARM_CMSIS_NN_SUCCESS;
    for (int32_t c = 0; c < calls && status == ARM_CMSIS_NN_SUCCESS; ++c)
    {
        status = arm_lstm_unidirectional_s8(inputs[c], output + c * out_size, &p, &ctx);
    }
    printf("%d", (int)status);
    print_s8(output, out_size * calls);
    print_s8(hidden, state_size);
    print_s16(cell, state_size);
    printf("\n");
}

static void run_step_s8(void)
{
    cmsis_nn_lstm_params p;
    rd_layer_s8(&p);
    const int32_t batch_offset = read_int32();
    const int32_t state_size = p.batch_size * p.hidden_size;
    const int8_t *data_in = rd_array(1, NULL);
    const int8_t *hidden_in = rd_array(1, NULL);
    int16_t *cell = rd_array(2, NULL);
    const int32_t out_size = p.batch_size * batch_offset * p.hidden_size;
    cmsis_nn_lstm_context ctx = {filled((size_t)state_size * 2), filled((size_t)state_size * 2), cell, NULL};
    int8_t *out = filled((size_t)out_size);
    const arm_cmsis_nn_status status = arm_nn_lstm_step_s8(data_in, hidden_in, out, &p, &ctx, batch_offset);
    printf("%d", (int)status);
    print_s8(out, out_size);
    print_s16(cell, state_size);
    printf("\n");
}

static void run_lstm_f32(void)
{
    cmsis_nn_lstm_params_f32 p;
    rd_layer_f32(&p);
    const int32_t calls = read_int32();
    const int32_t stateful = read_int32();
    const int32_t state_size = p.batch_size * p.hidden_size;
    const int32_t out_size = p.batch_size * p.time_steps * p.hidden_size;
    const float *inputs[16];
    if (calls < 1 || calls > 16)
    {
        fail("1 to 16 calls");
    }
    for (int32_t c = 0; c < calls; ++c)
    {
        inputs[c] = rd_array(4, NULL);
    }
    float *hidden = rd_array(4, NULL);
    float *cell = rd_array(4, NULL);
    cmsis_nn_lstm_context_f32 ctx = {filled((size_t)state_size * 4), filled((size_t)state_size * 4), cell,
                                     stateful ? hidden : NULL};
    float *output = filled((size_t)out_size * calls * 4);
    arm_cmsis_nn_status status = ARM_CMSIS_NN_SUCCESS;
    for (int32_t c = 0; c < calls && status == ARM_CMSIS_NN_SUCCESS; ++c)
    {
        status = arm_lstm_unidirectional_f32(inputs[c], output + c * out_size, &p, &ctx);
    }
    printf("%d", (int)status);
    print_f32(output, out_size * calls);
    print_f32(hidden, state_size);
    print_f32(cell, state_size);
    printf("\n");
}

static void run_step_f32(void)
{
    cmsis_nn_lstm_params_f32 p;
    rd_layer_f32(&p);
    const int32_t batch_offset = read_int32();
    const int32_t state_size = p.batch_size * p.hidden_size;
    const float *data_in = rd_array(4, NULL);
    const float *hidden_in = rd_array(4, NULL);
    float *cell = rd_array(4, NULL);
    const int32_t out_size = p.batch_size * batch_offset * p.hidden_size;
    cmsis_nn_lstm_context_f32 ctx = {filled((size_t)state_size * 4), filled((size_t)state_size * 4), cell, NULL};
    float *out = filled((size_t)out_size * 4);
    const arm_cmsis_nn_status status = arm_nn_lstm_step_f32(data_in, hidden_in, out, &p, &ctx, batch_offset);
    printf("%d", (int)status);
    print_f32(out, out_size);
    print_f32(cell, state_size);
    printf("\n");
}

static void run_vecmat(void)
{
    const int32_t cols = read_int32();
    const int32_t rows = read_int32();
    const int32_t batches = read_int32();
    const int32_t batch_offset = read_int32();
    const int32_t mult = read_int32();
    const int32_t shift = read_int32();
    const int8_t *lhs = rd_array(1, NULL);
    const int8_t *rhs = rd_array(1, NULL);
    const int32_t *bias = rd_array(4, NULL);
    int16_t *dst = rd_array(2, NULL);
    const arm_cmsis_nn_status status =
        arm_nn_vec_mat_mul_result_acc_s8_s16(lhs, rhs, bias, dst, mult, shift, cols, rows, batches, batch_offset);
    printf("%d", (int)status);
    print_s16(dst, batches * rows);
    printf("\n");
}

static void run_mulacc(void)
{
    const int32_t mult = read_int32();
    const int32_t shift = read_int32();
    const int32_t lo = read_int32();
    const int32_t hi = read_int32();
    int32_t n;
    const int16_t *a = rd_array(2, &n);
    const int16_t *b = rd_array(2, NULL);
    int16_t *out = rd_array(2, NULL);
    const arm_cmsis_nn_status status = arm_elementwise_mul_acc_s16(a, b, 0, 0, out, 0, mult, shift, lo, hi, n);
    printf("%d", (int)status);
    print_s16(out, n);
    printf("\n");
}

static void run_muls8(void)
{
    const int32_t block = read_int32();
    const int32_t batches = read_int32();
    const int32_t batch_offset = read_int32();
    const int32_t offset = read_int32();
    const int32_t mult = read_int32();
    const int32_t shift = read_int32();
    const int16_t *a = rd_array(2, NULL);
    const int16_t *b = rd_array(2, NULL);
    const int32_t out_size = block * batches * batch_offset;
    int8_t *out = filled((size_t)out_size);
    const arm_cmsis_nn_status status =
        arm_elementwise_mul_s16_s8(a, b, out, offset, mult, shift, block, batches, batch_offset);
    printf("%d", (int)status);
    print_s8(out, out_size);
    printf("\n");
}

int main(void)
{
    char name[32];
    while (scanf("%31s", name) == 1)
    {
        if (strcmp(name, "lstm_s8") == 0)
        {
            run_lstm_s8();
        }
        else if (strcmp(name, "step_s8") == 0)
        {
            run_step_s8();
        }
        else if (strcmp(name, "lstm_f32") == 0)
        {
            run_lstm_f32();
        }
        else if (strcmp(name, "step_f32") == 0)
        {
            run_step_f32();
        }
        else if (strcmp(name, "vecmat") == 0)
        {
            run_vecmat();
        }
        else if (strcmp(name, "mulacc") == 0)
        {
            run_mulacc();
        }
        else if (strcmp(name, "muls8") == 0)
        {
            run_muls8();
        }
        else
        {
            fail("unknown record");
        }
        release_all();
        fflush(stdout);
    }
    return 0;
}
