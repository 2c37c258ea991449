/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH and
 * RESIZE_NEAREST_NEIGHBOR kernels: reads calls on stdin, prints "<status> <count> <values...>". */

/*
 * Built against the portable kernels and (for parity tests) against ns-cmsis-nn. One record per line:
 *
 *   arm_batch_to_space_nd_<t>       in_dims(4) block_h block_w crop(4) out_dims(4) data
 *   arm_space_to_batch_nd_<t>       in_dims(4) block_h block_w pad(4) out_dims(4) output_offset data
 *   arm_depth_to_space_s8           in_dims(4) block out_dims(4) data
 *   arm_space_to_depth_s8           in_dims(4) block out_dims(4) data
 *   arm_resize_nearest_neighbor_<t> align half in_dims(4) size_dims(4) out_h out_w out_dims(4) data
 *
 * <t> is s8 or s16; data is "<count> <values...>". The output (volume of out_dims) starts filled with
 * a fixed pattern, so untouched elements compare equal too. The ns-cmsis-nn build gives the resize
 * (out_h + out_w) * 4 bytes of junk-filled scratch, the portable build none.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "spatial_driver"
#include "driver_io.h"

#ifndef DRIVER_GIVES_SCRATCH
#define DRIVER_GIVES_SCRATCH 0
#endif

static int32_t volume(const cmsis_nn_dims *d)
{
    const int32_t v = d->n * d->h * d->w * d->c;
    return v > 0 ? v : 0;
}

/* Element data of 1 or 2 bytes per value. */
static void *rd_data(size_t element_size)
{
    const int32_t n = read_int32();
    void *a = malloc((size_t)(n > 0 ? n : 1) * element_size);
    if (a == NULL)
    {
        fail("out of memory");
    }
    for (int32_t i = 0; i < n; ++i)
    {
        const int32_t v = read_int32();
        if (element_size == 1)
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

static void *new_output(int32_t count, size_t element_size)
{
    void *out = malloc((size_t)(count > 0 ? count : 1) * element_size);
    if (out == NULL)
    {
        fail("out of memory");
    }
    for (int32_t i = 0; i < count; ++i)
    {
        if (element_size == 1)
        {
            ((int8_t *)out)[i] = (int8_t)(0x5A ^ (i & 0x7F));
        }
        else
        {
            ((int16_t *)out)[i] = (int16_t)(0x5A5A ^ (i & 0x7FFF));
        }
    }
    return out;
}

static void print_values(int32_t status, const void *values, int32_t count, size_t element_size)
{
    printf("%d %d", (int)status, (int)count);
    for (int32_t i = 0; i < count; ++i)
    {
        printf(" %d", element_size == 1 ? (int)((const int8_t *)values)[i] : (int)((const int16_t *)values)[i]);
    }
    printf("\n");
}

static void run_batch_to_space(int is_s16)
{
    const size_t es = is_s16 ? 2 : 1;
    cmsis_nn_dims in_d, crop, out_d;
    cmsis_nn_tile block;
    read_dims(&in_d);
    block.h = read_int32();
    block.w = read_int32();
    read_dims(&crop);
    read_dims(&out_d);
    void *input = rd_data(es);
    const int32_t count = volume(&out_d);
    void *out = new_output(count, es);
    const arm_cmsis_nn_status status = is_s16
        ? arm_batch_to_space_nd_s16((const int16_t *)input, &in_d, &block, &crop, (int16_t *)out, &out_d)
        : arm_batch_to_space_nd_s8((const int8_t *)input, &in_d, &block, &crop, (int8_t *)out, &out_d);
    print_values(status, out, count, es);
    free(input);
    free(out);
}

static void run_space_to_batch(int is_s16)
{
    const size_t es = is_s16 ? 2 : 1;
    cmsis_nn_dims in_d, pad, out_d;
    cmsis_nn_tile block;
    read_dims(&in_d);
    block.h = read_int32();
    block.w = read_int32();
    read_dims(&pad);
    read_dims(&out_d);
    const int32_t offset = read_int32();
    void *input = rd_data(es);
    const int32_t count = volume(&out_d);
    void *out = new_output(count, es);
    const arm_cmsis_nn_status status = is_s16
        ? arm_space_to_batch_nd_s16((const int16_t *)input, &in_d, &block, &pad, (int16_t *)out, &out_d, offset)
        : arm_space_to_batch_nd_s8((const int8_t *)input, &in_d, &block, &pad, (int8_t *)out, &out_d, offset);
    print_values(status, out, count, es);
    free(input);
    free(out);
}

static void run_depth_space(int to_space)
{
    cmsis_nn_dims in_d, out_d;
    read_dims(&in_d);
    const int32_t block = read_int32();
    read_dims(&out_d);
    int8_t *input = rd_data(1);
    const int32_t count = volume(&out_d);
    int8_t *out = new_output(count, 1);
    const arm_cmsis_nn_status status = to_space ? arm_depth_to_space_s8(input, &in_d, block, out, &out_d)
                                                : arm_space_to_depth_s8(input, &in_d, block, out, &out_d);
    print_values(status, out, count, 1);
    free(input);
    free(out);
}

static void run_resize_nearest(int is_s16)
{
    const size_t es = is_s16 ? 2 : 1;
    cmsis_nn_resize_params params;
    cmsis_nn_dims in_d, size_d, out_d;
    int32_t size[2];
    params.align_corners = read_int32() != 0;
    params.half_pixel_centers = read_int32() != 0;
    read_dims(&in_d);
    read_dims(&size_d);
    size[0] = read_int32();
    size[1] = read_int32();
    read_dims(&out_d);
    void *input = rd_data(es);
    const int32_t count = volume(&out_d);
    void *out = new_output(count, es);
    cmsis_nn_context ctx = {NULL, 0};
    if (DRIVER_GIVES_SCRATCH)
    {
        const int32_t bytes = (size[0] + size[1]) * 4;
        ctx.buf = malloc((size_t)(bytes > 0 ? bytes : 4));
        if (ctx.buf == NULL)
        {
            fail("out of memory");
        }
        memset(ctx.buf, 0xA5, (size_t)(bytes > 0 ? bytes : 4));
        ctx.size = bytes;
    }
    const arm_cmsis_nn_status status = is_s16
        ? arm_resize_nearest_neighbor_s16(&ctx, &params, &in_d, (const int16_t *)input, &size_d, size, &out_d,
                                          (int16_t *)out)
        : arm_resize_nearest_neighbor_s8(&ctx, &params, &in_d, (const int8_t *)input, &size_d, size, &out_d,
                                         (int8_t *)out);
    print_values(status, out, count, es);
    free(ctx.buf);
    free(input);
    free(out);
}

int main(void)
{
    char name[64];
    while (scanf("%63s", name) == 1)
    {
        const int is_s16 = strstr(name, "_s16") != NULL;
        if (strncmp(name, "arm_batch_to_space_nd_", 22) == 0)
        {
            run_batch_to_space(is_s16);
        }
        else if (strncmp(name, "arm_space_to_batch_nd_", 22) == 0)
        {
            run_space_to_batch(is_s16);
        }
        else if (strcmp(name, "arm_depth_to_space_s8") == 0)
        {
            run_depth_space(1);
        }
        else if (strcmp(name, "arm_space_to_depth_s8") == 0)
        {
            run_depth_space(0);
        }
        else if (strncmp(name, "arm_resize_nearest_neighbor_", 28) == 0)
        {
            run_resize_nearest(is_s16);
        }
        else
        {
            fail("unknown record");
        }
        fflush(stdout);
    }
    return 0;
}
