/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the SPLIT, TILE, BROADCAST_TO and int32 STRIDED_SLICE kernels (portable or ns-cmsis-nn).
 *
 * One record per stdin line, integers separated by spaces; one result line per record:
 * "<status> <count> <values...>" (every output's elements, concatenated in output order).
 *   split  <bits 8|16> <rank> <shape...> <axis> <num> <split_dims...> <count> <data...>
 *   tile   <bits> <rank> <shape...> <multiples...> <count> <data...>
 *   bcast  <bits> <rank> <input shape...> <output shape...> <count> <data...>
 *   slice32 <input nhwc> <begin nhwc> <stride nhwc> <output nhwc> <count> <data...>
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "shaping_driver"
#include "driver_io.h"

#define MAX_RANK 8
#define MAX_SPLITS 16

static void read_ints(int32_t *dst, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
    {
        dst[i] = read_int32();
    }
}

/* The record's data as int8, int16 or int32 elements (caller frees). */
static void *read_data(int bits, int32_t *count)
{
    *count = read_int32();
    void *data = malloc((size_t)(*count > 0 ? *count : 1) * (size_t)(bits / 8));
    for (int32_t i = 0; i < *count; i++)
    {
        const long v = read_integer();
        if (bits == 8)
            ((int8_t *)data)[i] = (int8_t)v;
        else if (bits == 16)
            ((int16_t *)data)[i] = (int16_t)v;
        else
            ((int32_t *)data)[i] = (int32_t)v;
    }
    return data;
}

static void print_result(arm_cmsis_nn_status status, int bits, const void *values, size_t count)
{
    printf("%d %zu", (int)status, count);
    for (size_t i = 0; i < count; i++)
    {
        const long v = bits == 8 ? ((const int8_t *)values)[i]
                                 : (bits == 16 ? ((const int16_t *)values)[i] : ((const int32_t *)values)[i]);
        printf(" %ld", v);
    }
    printf("\n");
}

static size_t product(const int32_t *dims, int32_t n)
{
    size_t p = 1;
    for (int32_t i = 0; i < n; i++)
    {
        p *= (size_t)dims[i];
    }
    return p;
}

static void run_split(void)
{
    const int bits = (int)read_integer();
    const int32_t rank = read_int32();
    int32_t shape[MAX_RANK], split_dims[MAX_SPLITS];
    read_ints(shape, rank);
    const int32_t axis = read_int32();
    const int32_t num = read_int32();
    read_ints(split_dims, num);
    int32_t count;
    void *input = read_data(bits, &count);
    const size_t esize = (size_t)(bits / 8);
    size_t inner = 1, outer = product(shape, axis), total = 0;
    for (int32_t d = axis + 1; d < rank; d++)
        inner *= (size_t)shape[d];
    size_t starts[MAX_SPLITS];
    for (int32_t s = 0; s < num; s++)
    {
        starts[s] = total;
        total += outer * inner * (size_t)split_dims[s];
    }
    uint8_t *out = calloc(total + 1, esize);
    void *pieces[MAX_SPLITS];
    for (int32_t s = 0; s < num; s++)
    {
        pieces[s] = out + starts[s] * esize;
    }
    arm_cmsis_nn_status status;
    if (bits == 8)
    {
        int8_t *ptrs[MAX_SPLITS];
        for (int32_t s = 0; s < num; s++)
            ptrs[s] = pieces[s];
        status = arm_split_s8(input, rank, shape, axis, num, split_dims, ptrs);
    }
    else
    {
        int16_t *ptrs[MAX_SPLITS];
        for (int32_t s = 0; s < num; s++)
            ptrs[s] = pieces[s];
        status = arm_split_s16(input, rank, shape, axis, num, split_dims, ptrs);
    }
    print_result(status, bits, out, status == ARM_CMSIS_NN_SUCCESS ? total : 0);
    free(input);
    free(out);
}

static void run_tile_or_broadcast(int tile)
{
    const int bits = (int)read_integer();
    const int32_t rank = read_int32();
    int32_t in_shape[MAX_RANK], other[MAX_RANK], out_shape[MAX_RANK];
    read_ints(in_shape, rank);
    read_ints(other, rank);
    for (int32_t d = 0; d < rank; d++)
        out_shape[d] = tile ? in_shape[d] * other[d] : other[d];
    int32_t count;
    void *input = read_data(bits, &count);
    const size_t total = product(out_shape, rank);
    void *out = calloc(total + 1, (size_t)(bits / 8));
    arm_cmsis_nn_status status;
    if (tile)
    {
        const cmsis_nn_tile_params params = {rank, in_shape, other};
        status = bits == 8 ? arm_tile_s8(input, &params, out) : arm_tile_s16(input, &params, out);
    }
    else
    {
        const cmsis_nn_broadcast_to_params params = {rank, in_shape, out_shape};
        status = bits == 8 ? arm_broadcast_to_s8(input, &params, out) : arm_broadcast_to_s16(input, &params, out);
    }
    print_result(status, bits, out, status == ARM_CMSIS_NN_SUCCESS ? total : 0);
    free(input);
    free(out);
}

static void run_slice32(void)
{
    cmsis_nn_dims in, begin, stride, out;
    read_dims(&in);
    read_dims(&begin);
    read_dims(&stride);
    read_dims(&out);
    int32_t count;
    void *input = read_data(32, &count);
    const size_t total = (size_t)out.n * (size_t)out.h * (size_t)out.w * (size_t)out.c;
    int32_t *output = calloc(total + 1, sizeof(int32_t));
    const arm_cmsis_nn_status status = arm_strided_slice_s32(input, output, &in, &begin, &stride, &out);
    print_result(status, 32, output, total);
    free(input);
    free(output);
}

int main(void)
{
    char kind[16];
    while (scanf("%15s", kind) == 1)
    {
        if (strcmp(kind, "split") == 0)
            run_split();
        else if (strcmp(kind, "tile") == 0)
            run_tile_or_broadcast(1);
        else if (strcmp(kind, "bcast") == 0)
            run_tile_or_broadcast(0);
        else if (strcmp(kind, "slice32") == 0)
            run_slice32();
        else
        {
            fprintf(stderr, "shaping_driver: unknown record kind '%s'\n", kind);
            return 2;
        }
        fflush(stdout);
    }
    return 0;
}
