/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for helper C1's kernels (MAXIMUM / MINIMUM, ABS, SQUARED_DIFFERENCE, PRELU, BATCH_MATMUL). */

/*
 * Built twice from this one file, against the portable kernels and (for parity tests) against
 * ns-cmsis-nn, both with ARM_NN_ENABLE_F32. Protocol, one call per record on stdin:
 *
 *   <function name> <scalar args...> <arrays...>
 *
 * Arrays are "<count> <values...>"; float32 values travel as the int32 reading of their bits. Each
 * record prints "<status> <count> <outputs...>" (floats as bits again). Outputs start filled with a
 * fixed pattern, so elements a kernel leaves untouched compare equal too. The portable build passes
 * ctx->buf = NULL; the ns-cmsis-nn build a junk-filled buffer of the size its sizer reports.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "c1_arith_driver"
#include "driver_io.h"

#ifndef DRIVER_GIVES_SCRATCH
#define DRIVER_GIVES_SCRATCH 0
#endif

#if !ARM_NN_ENABLE_F32
#error "c1_arith_driver.c is built with ARM_NN_ENABLE_F32=1"
#endif

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL)
    {
        fail("out of memory");
    }
    return p;
}

/* An array of `size`-byte elements: int8, int16, int32 (float32 bits). */
static void *rd_array(size_t size, int32_t *count)
{
    const int32_t n = read_int32();
    uint8_t *a = alloc((size_t)(n > 0 ? n : 1) * size);
    for (int32_t i = 0; i < n; ++i)
    {
        const int64_t v = read_integer();
        if (size == 1)
        {
            ((int8_t *)a)[i] = (int8_t)v;
        }
        else if (size == 2)
        {
            ((int16_t *)a)[i] = (int16_t)v;
        }
        else
        {
            const int32_t bits = (int32_t)v;
            memcpy(a + (size_t)i * 4, &bits, 4);
        }
    }
    if (count != NULL)
    {
        *count = n;
    }
    return a;
}

static void *new_output(size_t size, int32_t count)
{
    uint8_t *out = alloc((size_t)(count > 0 ? count : 1) * size);
    for (size_t i = 0; i < (size_t)count * size; ++i)
    {
        out[i] = (uint8_t)(0x5A ^ (i & 0x7F));
    }
    return out;
}

static void print_array(int32_t status, const void *values, size_t size, int32_t count)
{
    printf("%d %d", (int)status, (int)count);
    for (int32_t i = 0; i < count; ++i)
    {
        long long v;
        if (size == 1)
        {
            v = ((const int8_t *)values)[i];
        }
        else if (size == 2)
        {
            v = ((const int16_t *)values)[i];
        }
        else
        {
            int32_t bits;
            memcpy(&bits, (const uint8_t *)values + (size_t)i * 4, 4);
            v = bits;
        }
        printf(" %lld", v);
    }
    printf("\n");
}

static int32_t volume(const cmsis_nn_dims *d)
{
    return d->n * d->h * d->w * d->c;
}

/* ---- MAXIMUM / MINIMUM: <name> dims1 dims2 dims_out array1 array2 ------------------------------- */

typedef arm_cmsis_nn_status (*minmax_s8_fn)(const cmsis_nn_context *, const int8_t *, const cmsis_nn_dims *,
                                            const int8_t *, const cmsis_nn_dims *, int8_t *, const cmsis_nn_dims *);
typedef arm_cmsis_nn_status (*minmax_s16_fn)(const cmsis_nn_context *, const int16_t *, const cmsis_nn_dims *,
                                             const int16_t *, const cmsis_nn_dims *, int16_t *,
                                             const cmsis_nn_dims *);

static void run_minmax(minmax_s8_fn f8, minmax_s16_fn f16)
{
    cmsis_nn_dims d1, d2, dout;
    read_dims(&d1);
    read_dims(&d2);
    read_dims(&dout);
    const size_t size = f8 != NULL ? 1 : 2;
    void *a = rd_array(size, NULL);
    void *b = rd_array(size, NULL);
    const int32_t count = volume(&dout);
    void *out = new_output(size, count);
    const cmsis_nn_context ctx = {NULL, 0};
    const arm_cmsis_nn_status status = f8 != NULL ? f8(&ctx, a, &d1, b, &d2, out, &dout)
                                                  : f16(&ctx, a, &d1, b, &d2, out, &dout);
    print_array(status, out, size, count);
    free(a);
    free(b);
    free(out);
}

/* ---- ABS: arm_abs_s8/_s16 input_offset out_offset out_mult out_shift needs_rescale act_min act_max array;
 *      arm_nn_abs_f32 array ------------------------------------------------------------------------ */

static void run_abs(size_t size)
{
    const int32_t input_offset = read_int32();
    const int32_t out_offset = read_int32();
    const int32_t out_mult = read_int32();
    const int32_t out_shift = read_int32();
    const bool needs_rescale = read_int32() != 0;
    const int32_t act_min = read_int32();
    const int32_t act_max = read_int32();
    int32_t count;
    void *in = rd_array(size, &count);
    void *out = new_output(size, count);
    const arm_cmsis_nn_status status =
        size == 1 ? arm_abs_s8(in, input_offset, out, out_offset, out_mult, out_shift, needs_rescale, act_min, act_max,
                               count)
                  : arm_abs_s16(in, input_offset, out, out_offset, out_mult, out_shift, needs_rescale, act_min,
                                act_max, count);
    print_array(status, out, size, count);
    free(in);
    free(out);
}

/* DRIVER_LACKS_<entry>: the library under test has no such entry (kernel_build.ns_driver_defines). */
#ifndef DRIVER_LACKS_arm_nn_abs_f32
static void run_abs_f32(void)
{
    int32_t count;
    float32_t *in = rd_array(4, &count);
    float32_t *out = new_output(4, count);
    const arm_cmsis_nn_status status = arm_nn_abs_f32(in, out, count);
    print_array(status, out, 4, count);
    free(in);
    free(out);
}
#endif

/* ---- SQUARED_DIFFERENCE: quant = off1 mult1 shift1 off2 mult2 shift2 left_shift out_off out_mult out_shift
 *      act_min act_max. arm_elementwise_squared_difference_s8 / arm_squared_difference_scalar_s8: quant a1 a2
 *      (output as long as a2); arm_squared_difference_s8: dims1 dims2 dims_out quant a1 a2 -------------- */

static void rd_quant(int32_t q[12])
{
    for (int k = 0; k < 12; ++k)
    {
        q[k] = read_int32();
    }
}

static void run_sqdiff_vectors(int scalar)
{
    int32_t q[12];
    rd_quant(q);
    int8_t *a = rd_array(1, NULL);
    int32_t count;
    int8_t *b = rd_array(1, &count);
    int8_t *out = new_output(1, count);
    const arm_cmsis_nn_status status =
        scalar ? arm_squared_difference_scalar_s8(a, b, q[0], q[1], q[2], q[3], q[4], q[5], q[6], out, q[7], q[8], q[9],
                                                  q[10], q[11], count)
               : arm_elementwise_squared_difference_s8(a, b, q[0], q[1], q[2], q[3], q[4], q[5], q[6], out, q[7], q[8],
                                                       q[9], q[10], q[11], count);
    print_array(status, out, 1, count);
    free(a);
    free(b);
    free(out);
}

static void run_sqdiff_broadcast(void)
{
    cmsis_nn_dims d1, d2, dout;
    read_dims(&d1);
    read_dims(&d2);
    read_dims(&dout);
    int32_t q[12];
    rd_quant(q);
    int8_t *a = rd_array(1, NULL);
    int8_t *b = rd_array(1, NULL);
    const int32_t count = volume(&dout);
    int8_t *out = new_output(1, count);
    const arm_cmsis_nn_status status = arm_squared_difference_s8(
        a, &d1, b, &d2, q[0], q[1], q[2], q[3], q[4], q[5], q[6], out, &dout, q[7], q[8], q[9], q[10], q[11]);
    print_array(status, out, 1, count);
    free(a);
    free(b);
    free(out);
}

/* ---- PRELU: arm_prelu_s8/_s16 input_dims alpha_dims output_dims input_offset alpha_offset output_offset
 *      mult_identity shift_identity mult_alpha shift_alpha input alpha;
 *      arm_prelu_f32 input_dims alpha_dims output_dims input alpha ---------------------------------------- */

static void run_prelu(size_t size)
{
    cmsis_nn_dims din, dalpha, dout;
    read_dims(&din);
    read_dims(&dalpha);
    read_dims(&dout);
    int32_t q[7] = {0};
    if (size != 4)
    {
        for (int k = 0; k < 7; ++k)
        {
            q[k] = read_int32();
        }
    }
    void *in = rd_array(size, NULL);
    void *alpha = rd_array(size, NULL);
    const int32_t count = volume(&dout);
    void *out = new_output(size, count);
    arm_cmsis_nn_status status;
    if (size == 1)
    {
        status = arm_prelu_s8(&din, in, &dalpha, alpha, q[0], q[1], q[2], q[3], q[4], q[5], q[6], &dout, out);
    }
    else if (size == 2)
    {
        status = arm_prelu_s16(&din, in, &dalpha, alpha, q[0], q[1], q[2], q[3], q[4], q[5], q[6], &dout, out);
    }
#ifndef DRIVER_LACKS_arm_prelu_f32
    else
    {
        status = arm_prelu_f32(&din, in, &dalpha, alpha, &dout, out);
    }
#else
    else
    {
        fail("arm_prelu_f32 is not in this library");
        status = ARM_CMSIS_NN_ARG_ERROR;
    }
#endif
    print_array(status, out, size, count);
    free(in);
    free(alpha);
    free(out);
}

/* ---- BATCH_MATMUL: arm_batch_matmul_s8/_s16 lhs_dims rhs_dims output_dims input_offset filter_offset
 *      output_offset act_min act_max multiplier shift lhs rhs; arm_batch_matmul_s8_get_buffer_size* rhs_dims -- */

static void run_batch_matmul(size_t size)
{
    cmsis_nn_dims dl, dr, dout;
    read_dims(&dl);
    read_dims(&dr);
    read_dims(&dout);
    const int32_t input_offset = read_int32();
    const int32_t filter_offset = read_int32();
    const int32_t output_offset = read_int32();
    const int32_t act_min = read_int32();
    const int32_t act_max = read_int32();
    const cmsis_nn_per_tensor_quant_params quant = {read_int32(), read_int32()};
    void *lhs = rd_array(size, NULL);
    void *rhs = rd_array(size, NULL);
    const int32_t count = volume(&dout);
    void *out = new_output(size, count);
    const cmsis_nn_bmm_params params = {false, false, {input_offset, filter_offset, output_offset, {act_min, act_max}}};
#if DRIVER_GIVES_SCRATCH && defined(DRIVER_LACKS_arm_batch_matmul_s8_get_buffer_size)
    /* No sizer in this library: the MVE kernel sums a module gives (one int32 per RHS row). */
    const int32_t scratch_size = size == 1 ? dr.w * (int32_t)sizeof(int32_t) : 0;
#elif DRIVER_GIVES_SCRATCH
    const int32_t scratch_size = size == 1 ? arm_batch_matmul_s8_get_buffer_size(&dr) : 0;
#else
    const int32_t scratch_size = 0;
#endif
    void *scratch = scratch_size > 0 ? new_output(1, scratch_size) : NULL;
    const cmsis_nn_context ctx = {scratch, scratch_size};
    const arm_cmsis_nn_status status =
        size == 1 ? arm_batch_matmul_s8(&ctx, &params, &quant, &dl, lhs, &dr, rhs, &dout, out)
                  : arm_batch_matmul_s16(&ctx, &params, &quant, &dl, lhs, &dr, rhs, &dout, out);
    print_array(status, out, size, count);
    free(lhs);
    free(rhs);
    free(out);
    free(scratch);
}

#if !defined(DRIVER_LACKS_arm_batch_matmul_s8_get_buffer_size) || \
    !defined(DRIVER_LACKS_arm_batch_matmul_s8_get_buffer_size_dsp) || \
    !defined(DRIVER_LACKS_arm_batch_matmul_s8_get_buffer_size_mve)
static void run_bmm_size(int32_t (*sizer)(const cmsis_nn_dims *))
{
    cmsis_nn_dims d;
    read_dims(&d);
    const int32_t size = sizer(&d);
    print_array(0, &size, 4, 1);
}
#endif

/* ---- dispatch ------------------------------------------------------------------------------------ */

int main(void)
{
    char name[96];
    while (scanf("%95s", name) == 1)
    {
        if (strcmp(name, "arm_maximum_s8") == 0)
        {
            run_minmax(arm_maximum_s8, NULL);
        }
        else if (strcmp(name, "arm_minimum_s8") == 0)
        {
            run_minmax(arm_minimum_s8, NULL);
        }
        else if (strcmp(name, "arm_maximum_s16") == 0)
        {
            run_minmax(NULL, arm_maximum_s16);
        }
        else if (strcmp(name, "arm_minimum_s16") == 0)
        {
            run_minmax(NULL, arm_minimum_s16);
        }
        else if (strcmp(name, "arm_abs_s8") == 0)
        {
            run_abs(1);
        }
        else if (strcmp(name, "arm_abs_s16") == 0)
        {
            run_abs(2);
        }
#ifndef DRIVER_LACKS_arm_nn_abs_f32
        else if (strcmp(name, "arm_nn_abs_f32") == 0)
        {
            run_abs_f32();
        }
#endif
        else if (strcmp(name, "arm_elementwise_squared_difference_s8") == 0)
        {
            run_sqdiff_vectors(0);
        }
        else if (strcmp(name, "arm_squared_difference_scalar_s8") == 0)
        {
            run_sqdiff_vectors(1);
        }
        else if (strcmp(name, "arm_squared_difference_s8") == 0)
        {
            run_sqdiff_broadcast();
        }
        else if (strcmp(name, "arm_prelu_s8") == 0)
        {
            run_prelu(1);
        }
        else if (strcmp(name, "arm_prelu_s16") == 0)
        {
            run_prelu(2);
        }
        else if (strcmp(name, "arm_prelu_f32") == 0)
        {
            run_prelu(4);
        }
        else if (strcmp(name, "arm_batch_matmul_s8") == 0)
        {
            run_batch_matmul(1);
        }
        else if (strcmp(name, "arm_batch_matmul_s16") == 0)
        {
            run_batch_matmul(2);
        }
#ifndef DRIVER_LACKS_arm_batch_matmul_s8_get_buffer_size
        else if (strcmp(name, "arm_batch_matmul_s8_get_buffer_size") == 0)
        {
            run_bmm_size(arm_batch_matmul_s8_get_buffer_size);
        }
#endif
#ifndef DRIVER_LACKS_arm_batch_matmul_s8_get_buffer_size_dsp
        else if (strcmp(name, "arm_batch_matmul_s8_get_buffer_size_dsp") == 0)
        {
            run_bmm_size(arm_batch_matmul_s8_get_buffer_size_dsp);
        }
#endif
#ifndef DRIVER_LACKS_arm_batch_matmul_s8_get_buffer_size_mve
        else if (strcmp(name, "arm_batch_matmul_s8_get_buffer_size_mve") == 0)
        {
            run_bmm_size(arm_batch_matmul_s8_get_buffer_size_mve);
        }
#endif
        else
        {
            fail("unknown function");
        }
        fflush(stdout);
    }
    return 0;
}
