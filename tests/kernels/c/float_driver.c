/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the float32 / float16 kernels: reads calls as integers on stdin, prints status and outputs. */

/*
 * Built twice from this one file, like kernel_driver.c: against the portable kernels and (for
 * parity tests) against ns-cmsis-nn, both with ARM_NN_ENABLE_F32 and ARM_NN_ENABLE_F16. Protocol,
 * one call per record:
 *
 *   <function name> <scalar args...> <arrays...>
 *
 * Every float travels as its bit pattern: a float32 as the int32 reading of its bits, a float16 as
 * the uint16 one. Arrays are "<count> <values...>"; a bias array of count 0 is passed as NULL. Each
 * record prints one line "<status> <count> <bit patterns...>"; *_get_buffer_size records print
 * "0 1 <size>". The portable build passes ctx->buf = NULL to every kernel; the ns-cmsis-nn build
 * passes a junk-filled buffer of the size its sizer reports, as generated code does. Outputs start
 * filled with a fixed pattern, so elements a kernel leaves untouched compare equal too. The record
 * layouts are in float_driver_ops.h and tests/kernels/flt_records.py.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "float_driver"
#include "driver_io.h"

#ifndef DRIVER_GIVES_SCRATCH
#define DRIVER_GIVES_SCRATCH 0
#endif

#if !ARM_NN_ENABLE_F32 || !ARM_NN_ENABLE_F16
#error "float_driver.c is built with ARM_NN_ENABLE_F32=1 and ARM_NN_ENABLE_F16=1"
#endif

static void rd_tile(cmsis_nn_tile *t)
{
    t->w = read_int32();
    t->h = read_int32();
}

static int32_t volume(const cmsis_nn_dims *d)
{
    return d->n * d->h * d->w * d->c;
}

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL)
    {
        fail("out of memory");
    }
    return p;
}

/* A float32 from its bits, and back. */
static float32_t f32_of(int32_t bits)
{
    float32_t f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static int32_t bits_of_f32(float32_t f)
{
    int32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    return bits;
}

static float16_t f16_of(int32_t bits)
{
    const uint16_t b = (uint16_t)bits;
    float16_t f;
    memcpy(&f, &b, sizeof(f));
    return f;
}

static int32_t bits_of_f16(float16_t f)
{
    uint16_t bits;
    memcpy(&bits, &f, sizeof(bits));
    return (int32_t)bits;
}

/* Scratch for one call: NULL for the portable kernels, a junk-filled buffer of `size` bytes otherwise. */
static cmsis_nn_context scratch(int32_t size)
{
    cmsis_nn_context ctx = {NULL, 0};
    if (DRIVER_GIVES_SCRATCH && size > 0)
    {
        ctx.buf = alloc((size_t)size);
        memset(ctx.buf, 0xA5, (size_t)size);
        ctx.size = size;
    }
    return ctx;
}

static void print_size(int32_t size)
{
    printf("0 1 %ld\n", (long)size);
}

/* A handler runs one record whose name it matched; the tables below come from float_driver_ops.h. */
typedef struct
{
    const char *name;
    void (*run)(const char *name);
} handler;

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define STR(x) #x
#define XSTR(x) STR(x)

/* FLT_HAS_<op>: 0 where the library under test lacks that entry of this type (DRIVER_LACKS_<entry>, set by
 * kernel_build.ns_driver_defines): its handler is compiled out. */

/* float32 */
#define FLT_SUF _f32
#ifdef DRIVER_LACKS_arm_elementwise_sub_f32
#define FLT_HAS_ELEMENTWISE_SUB 0
#else
#define FLT_HAS_ELEMENTWISE_SUB 1
#endif
#ifdef DRIVER_LACKS_arm_strided_slice_f32
#define FLT_HAS_STRIDED_SLICE 0
#else
#define FLT_HAS_STRIDED_SLICE 1
#endif
#ifdef DRIVER_LACKS_arm_reduce_sum_f32
#define FLT_HAS_REDUCE_SUM 0
#else
#define FLT_HAS_REDUCE_SUM 1
#endif
#define FLT_T float32_t
#define FLT_OF f32_of
#define BITS_OF bits_of_f32
#include "float_driver_ops.h"
#undef FLT_SUF
#undef FLT_T
#undef FLT_OF
#undef BITS_OF
#undef FLT_HAS_ELEMENTWISE_SUB
#undef FLT_HAS_STRIDED_SLICE
#undef FLT_HAS_REDUCE_SUM

/* float16 */
#define FLT_SUF _f16
#ifdef DRIVER_LACKS_arm_elementwise_sub_f16
#define FLT_HAS_ELEMENTWISE_SUB 0
#else
#define FLT_HAS_ELEMENTWISE_SUB 1
#endif
#ifdef DRIVER_LACKS_arm_strided_slice_f16
#define FLT_HAS_STRIDED_SLICE 0
#else
#define FLT_HAS_STRIDED_SLICE 1
#endif
#ifdef DRIVER_LACKS_arm_reduce_sum_f16
#define FLT_HAS_REDUCE_SUM 0
#else
#define FLT_HAS_REDUCE_SUM 1
#endif
#define FLT_T float16_t
#define FLT_OF f16_of
#define BITS_OF bits_of_f16
#include "float_driver_ops.h"
#undef FLT_SUF
#undef FLT_T
#undef FLT_OF
#undef BITS_OF
#undef FLT_HAS_ELEMENTWISE_SUB
#undef FLT_HAS_STRIDED_SLICE
#undef FLT_HAS_REDUCE_SUM

static const handler *find(const handler *table, const char *name)
{
    for (; table->name != NULL; ++table)
    {
        if (strcmp(table->name, name) == 0)
        {
            return table;
        }
    }
    return NULL;
}

int main(void)
{
    char name[128];
    while (scanf("%127s", name) == 1)
    {
        const handler *h = find(handlers_f32, name);
        if (h == NULL)
        {
            h = find(handlers_f16, name);
        }
        if (h == NULL)
        {
            fprintf(stderr, "float_driver: unknown function %s\n", name);
            return 2;
        }
        h->run(name);
        fflush(stdout);
    }
    return 0;
}
