/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the GATHER, GATHER_ND, SCATTER_ND, MIRROR_PAD, REVERSE_SEQUENCE and DYNAMIC_UPDATE_SLICE
 * entries: reads calls as whitespace-separated integers on stdin, prints status and output. */

/*
 * Built against the portable kernels and, for parity tests, against ns-cmsis-nn; both builds print the same
 * lines when the libraries agree. One call per line:
 *
 *   <function> <bits: 8 or 16> <scalar arguments...> <arrays...>
 *
 * Arrays are "<count> <values...>" (the data arrays hold int8 or int16 values per <bits>). Each call prints
 * "<status> <count> <output values...>". The output starts filled with a fixed pattern, so elements a kernel
 * leaves alone compare equal too. Field orders are in tests/kernels/test_indexing.py.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "indexing_driver"
#include "driver_io.h"

/* An int32 array; never NULL (at least one element is allocated). */
static int32_t *rd_i32(int32_t *count)
{
    const int32_t n = read_int32();
    int32_t *a = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
    if (a == NULL)
    {
        fail("out of memory");
    }
    for (int32_t i = 0; i < n; ++i)
    {
        a[i] = read_int32();
    }
    if (count != NULL)
    {
        *count = n;
    }
    return a;
}

/* A data array of int8 or int16 elements (bits 8 or 16). */
static void *rd_data(int32_t bits)
{
    const int32_t n = read_int32();
    const size_t size = bits == 8 ? 1u : 2u;
    void *a = malloc((size_t)(n > 0 ? n : 1) * size);
    if (a == NULL)
    {
        fail("out of memory");
    }
    for (int32_t i = 0; i < n; ++i)
    {
        const int32_t v = read_int32();
        if (bits == 8)
        {
            ((int8_t *)a)[i] = (int8_t)v;
        }
        else
        {
            ((int16_t *)a)[i] = (int16_t)v;
        }
    }
    return a;
}

static void *new_output(int32_t bits, int32_t count)
{
    const size_t bytes = (size_t)(count > 0 ? count : 1) * (bits == 8 ? 1u : 2u);
    void *a = malloc(bytes);
    if (a == NULL)
    {
        fail("out of memory");
    }
    memset(a, 0x5a, bytes);
    return a;
}

static void print_result(arm_cmsis_nn_status status, int32_t bits, const void *out, int32_t count)
{
    printf("%d %ld", (int)status, (long)count);
    for (int32_t i = 0; i < count; ++i)
    {
        printf(" %d", bits == 8 ? (int)((const int8_t *)out)[i] : (int)((const int16_t *)out)[i]);
    }
    printf("\n");
}

static int32_t product(const int32_t *shape, int32_t n)
{
    int32_t p = 1;
    for (int32_t i = 0; i < n; ++i)
    {
        p *= shape[i];
    }
    return p;
}

/* gather B axis batch_dims input_rank coords_rank input_dims[4] indices_dims[4] output_dims[4] out_count
 * input[] indices[] */
static void do_gather(int32_t bits)
{
    cmsis_nn_gather_params p;
    cmsis_nn_dims in_dims, idx_dims, out_dims;
    p.axis = read_int32();
    p.batch_dims = read_int32();
    p.input_rank = read_int32();
    p.coords_rank = read_int32();
    read_dims(&in_dims);
    read_dims(&idx_dims);
    read_dims(&out_dims);
    const int32_t count = read_int32();
    void *input = rd_data(bits);
    int32_t *indices = rd_i32(NULL);
    void *out = new_output(bits, count);
    const arm_cmsis_nn_status s = bits == 8
        ? arm_gather_s8(input, &in_dims, indices, &idx_dims, &p, out, &out_dims)
        : arm_gather_s16(input, &in_dims, indices, &idx_dims, &p, out, &out_dims);
    print_result(s, bits, out, count);
    free(input);
    free(indices);
    free(out);
}

/* gather_nd B params_rank indices_rank batch_dims params_dims[4] indices_dims[4] output_dims[4] out_count
 * params[] indices[] */
static void do_gather_nd(int32_t bits)
{
    cmsis_nn_gather_nd_params p;
    cmsis_nn_dims in_dims, idx_dims, out_dims;
    p.params_rank = read_int32();
    p.indices_rank = read_int32();
    p.batch_dims = read_int32();
    read_dims(&in_dims);
    read_dims(&idx_dims);
    read_dims(&out_dims);
    const int32_t count = read_int32();
    void *input = rd_data(bits);
    int32_t *indices = rd_i32(NULL);
    void *out = new_output(bits, count);
    const arm_cmsis_nn_status s = bits == 8
        ? arm_gather_nd_s8(input, &in_dims, indices, &idx_dims, &p, out, &out_dims)
        : arm_gather_nd_s16(input, &in_dims, indices, &idx_dims, &p, out, &out_dims);
    print_result(s, bits, out, count);
    free(input);
    free(indices);
    free(out);
}

/* scatter_nd B num_updates index_depth slice_size output_size strides[] indices[] updates[] */
static void do_scatter_nd(int32_t bits)
{
    cmsis_nn_scatter_nd_params p;
    p.num_updates = read_int32();
    p.index_depth = read_int32();
    p.slice_size = read_int32();
    p.output_size = read_int32();
    int32_t *strides = rd_i32(NULL);
    p.output_strides = strides;
    int32_t *indices = rd_i32(NULL);
    void *updates = rd_data(bits);
    void *out = new_output(bits, p.output_size);
    const arm_cmsis_nn_status s =
        bits == 8 ? arm_scatter_nd_s8(indices, updates, &p, out) : arm_scatter_nd_s16(indices, updates, &p, out);
    print_result(s, bits, out, p.output_size);
    free(strides);
    free(indices);
    free(updates);
    free(out);
}

/* mirror_pad B rank mode input_shape[] output_shape[] pad_before[] input[] */
static void do_mirror_pad(int32_t bits)
{
    cmsis_nn_mirror_pad_params p;
    p.rank = read_int32();
    p.mode = read_int32();
    int32_t *in_shape = rd_i32(NULL);
    int32_t *out_shape = rd_i32(NULL);
    int32_t *before = rd_i32(NULL);
    p.input_shape = in_shape;
    p.output_shape = out_shape;
    p.pad_before = before;
    void *input = rd_data(bits);
    const int32_t count = product(out_shape, p.rank);
    void *out = new_output(bits, count);
    const arm_cmsis_nn_status s =
        bits == 8 ? arm_mirror_pad_s8(input, &p, out) : arm_mirror_pad_s16(input, &p, out);
    print_result(s, bits, out, count);
    free(in_shape);
    free(out_shape);
    free(before);
    free(input);
    free(out);
}

/* reverse_sequence B rank seq_dim batch_dim shape[] seq_lengths[] input[] */
static void do_reverse_sequence(int32_t bits)
{
    cmsis_nn_reverse_sequence_params p;
    p.rank = read_int32();
    p.seq_dim = read_int32();
    p.batch_dim = read_int32();
    int32_t *shape = rd_i32(NULL);
    p.shape = shape;
    int32_t *lengths = rd_i32(NULL);
    void *input = rd_data(bits);
    const int32_t count = product(shape, p.rank);
    void *out = new_output(bits, count);
    const arm_cmsis_nn_status s = bits == 8 ? arm_reverse_sequence_s8(input, lengths, &p, out)
                                            : arm_reverse_sequence_s16(input, lengths, &p, out);
    print_result(s, bits, out, count);
    free(shape);
    free(lengths);
    free(input);
    free(out);
}

/* dynamic_update_slice B rank operand_size update_size operand_shape[] update_shape[] operand_strides[]
 * start_indices[] operand[] update[] */
static void do_dynamic_update_slice(int32_t bits)
{
    cmsis_nn_dynamic_update_slice_params p;
    p.rank = read_int32();
    p.operand_size = read_int32();
    p.update_size = read_int32();
    int32_t *op_shape = rd_i32(NULL);
    int32_t *up_shape = rd_i32(NULL);
    int32_t *strides = rd_i32(NULL);
    int32_t *start = rd_i32(NULL);
    p.operand_shape = op_shape;
    p.update_shape = up_shape;
    p.operand_strides = strides;
    void *operand = rd_data(bits);
    void *update = rd_data(bits);
    void *out = new_output(bits, p.operand_size);
    const arm_cmsis_nn_status s = bits == 8 ? arm_dynamic_update_slice_s8(operand, update, start, &p, out)
                                            : arm_dynamic_update_slice_s16(operand, update, start, &p, out);
    print_result(s, bits, out, p.operand_size);
    free(op_shape);
    free(up_shape);
    free(strides);
    free(start);
    free(operand);
    free(update);
    free(out);
}

int main(void)
{
    char name[64];
    while (scanf("%63s", name) == 1)
    {
        const int32_t bits = read_int32();
        if (bits != 8 && bits != 16)
        {
            fail("bits must be 8 or 16");
        }
        if (strcmp(name, "gather") == 0)
        {
            do_gather(bits);
        }
        else if (strcmp(name, "gather_nd") == 0)
        {
            do_gather_nd(bits);
        }
        else if (strcmp(name, "scatter_nd") == 0)
        {
            do_scatter_nd(bits);
        }
        else if (strcmp(name, "mirror_pad") == 0)
        {
            do_mirror_pad(bits);
        }
        else if (strcmp(name, "reverse_sequence") == 0)
        {
            do_reverse_sequence(bits);
        }
        else if (strcmp(name, "dynamic_update_slice") == 0)
        {
            do_dynamic_update_slice(bits);
        }
        else
        {
            fail("unknown function");
        }
    }
    return 0;
}
