/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the comparison, REDUCE_MAX / REDUCE_MIN and SELECT_V2 kernels: one record per line in,
 * "<status> <output values...>" per record out. Built against the portable kernels or ns-cmsis-nn.
 *
 *   cmp <bits> <op 0..5> <named 0/1> <dims1 x4> <dims2 x4> <out x4> <off1 m1 s1 off2 m2 s2 left_shift> <in1...> <in2...>
 *   reduce <bits> <max 0/1> <in dims x4> <axis x4> <out dims x4> <in...>
 *   arg <max 0/1> <in dims x4> <axis> <in...>                       (int8)
 *   select <bits> <rank> <shape> <cond strides> <x strides> <y strides> <nc> <cond...> <nx> <x...> <ny> <y...>
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "selection_driver"
#include "driver_io.h"

static int32_t count(const cmsis_nn_dims *d)
{
    return d->n * d->h * d->w * d->c;
}

/* Reads n values into a fresh buffer of the element size (bits 8 or 16). */
static void *rd_values(int32_t bits, int32_t n)
{
    void *p = malloc((size_t)(n > 0 ? n : 1) * (bits == 8 ? 1u : 2u));
    for (int32_t i = 0; i < n; ++i)
    {
        if (bits == 8)
        {
            ((int8_t *)p)[i] = (int8_t)read_int32();
        }
        else
        {
            ((int16_t *)p)[i] = (int16_t)read_int32();
        }
    }
    return p;
}

static void print_values(int32_t status, const void *p, int32_t bits, int32_t n)
{
    printf("%d", (int)status);
    for (int32_t i = 0; i < n; ++i)
    {
        printf(" %d", bits == 1 ? (int)((const bool *)p)[i] : bits == 8 ? ((const int8_t *)p)[i] : ((const int16_t *)p)[i]);
    }
    printf("\n");
}

typedef arm_cmsis_nn_status (*named_s8)(const cmsis_nn_context *, const int8_t *, const cmsis_nn_dims *,
                                        const int8_t *, const cmsis_nn_dims *, bool *, const cmsis_nn_dims *,
                                        const int32_t, const int32_t, const int32_t, const int32_t, const int32_t,
                                        const int32_t, const int32_t);
typedef arm_cmsis_nn_status (*named_s16)(const cmsis_nn_context *, const int16_t *, const cmsis_nn_dims *,
                                         const int16_t *, const cmsis_nn_dims *, bool *, const cmsis_nn_dims *,
                                         const int32_t, const int32_t, const int32_t, const int32_t, const int32_t,
                                         const int32_t, const int32_t);

static void comparison(void)
{
    static const named_s8 s8[6] = {arm_equal_s8, arm_not_equal_s8, arm_greater_s8,
                                   arm_greater_equal_s8, arm_less_s8, arm_less_equal_s8};
    static const named_s16 s16[6] = {arm_equal_s16, arm_not_equal_s16, arm_greater_s16,
                                     arm_greater_equal_s16, arm_less_s16, arm_less_equal_s16};
    const int32_t bits = read_int32(), op = read_int32(), named = read_int32();
    cmsis_nn_dims d1, d2, d_out;
    read_dims(&d1);
    read_dims(&d2);
    read_dims(&d_out);
    int32_t q[7];
    for (int i = 0; i < 7; ++i)
    {
        q[i] = read_int32();
    }
    void *in1 = rd_values(bits, count(&d1));
    void *in2 = rd_values(bits, count(&d2));
    bool *out = calloc((size_t)count(&d_out) + 1, 1);
    const cmsis_nn_context ctx = {NULL, 0};
    arm_cmsis_nn_status status;
    if (bits == 8)
    {
        status = named ? s8[op](&ctx, in1, &d1, in2, &d2, out, &d_out, q[0], q[1], q[2], q[3], q[4], q[5], q[6])
                       : arm_comparison_s8(&ctx, in1, &d1, in2, &d2, out, &d_out, q[0], q[1], q[2], q[3], q[4], q[5],
                                           q[6], (arm_nn_compare_operation)op);
    }
    else
    {
        status = named ? s16[op](&ctx, in1, &d1, in2, &d2, out, &d_out, q[0], q[1], q[2], q[3], q[4], q[5], q[6])
                       : arm_comparison_s16(&ctx, in1, &d1, in2, &d2, out, &d_out, q[0], q[1], q[2], q[3], q[4], q[5],
                                            q[6], (arm_nn_compare_operation)op);
    }
    print_values(status, out, 1, count(&d_out));
    free(in1);
    free(in2);
    free(out);
}

static void reduce(void)
{
    const int32_t bits = read_int32(), want_max = read_int32();
    cmsis_nn_dims d_in, axis, d_out;
    read_dims(&d_in);
    read_dims(&axis);
    read_dims(&d_out);
    void *in = rd_values(bits, count(&d_in));
    void *out = calloc((size_t)count(&d_out) + 1, 2);
    arm_cmsis_nn_status status;
    if (bits == 8)
    {
        status = want_max ? arm_reduce_max_s8(in, &d_in, &axis, out, &d_out) : arm_reduce_min_s8(in, &d_in, &axis, out, &d_out);
    }
    else
    {
        status = want_max ? arm_reduce_max_s16(in, &d_in, &axis, out, &d_out)
                          : arm_reduce_min_s16(in, &d_in, &axis, out, &d_out);
    }
    print_values(status, out, bits, count(&d_out));
    free(in);
    free(out);
}

static void arg(void)
{
    const int32_t want_max = read_int32();
    cmsis_nn_dims d_in;
    read_dims(&d_in);
    const int32_t axis = read_int32();
    int8_t *in = rd_values(8, count(&d_in));
    const int32_t dims[4] = {d_in.n, d_in.h, d_in.w, d_in.c};
    const int32_t n_out = axis >= 0 && axis < 4 ? count(&d_in) / dims[axis] : 0;
    int32_t *out = calloc((size_t)n_out + 1, sizeof(int32_t));
    const arm_cmsis_nn_status status =
        want_max ? arm_argmax_s8(in, &d_in, axis, out) : arm_argmin_s8(in, &d_in, axis, out);
    printf("%d", (int)status);
    for (int32_t i = 0; i < n_out; ++i)
    {
        printf(" %d", (int)out[i]);
    }
    printf("\n");
    free(in);
    free(out);
}

static void selection(void)
{
    const int32_t bits = read_int32(), rank = read_int32() % 17;
    int32_t shape[16], cs[16], xs[16], ys[16], size = 1; /* room for the rank-9 record the kernel refuses */
    int32_t *arrays[4] = {shape, cs, xs, ys};
    for (int a = 0; a < 4; ++a)
    {
        for (int32_t d = 0; d < rank; ++d)
        {
            arrays[a][d] = read_int32();
        }
    }
    for (int32_t d = 0; d < rank; ++d)
    {
        size *= shape[d];
    }
    const int32_t nc = read_int32();
    bool *cond = malloc((size_t)nc + 1);
    for (int32_t i = 0; i < nc; ++i)
    {
        cond[i] = read_int32() != 0;
    }
    const int32_t nx = read_int32();
    void *x = rd_values(bits, nx);
    const int32_t ny = read_int32();
    void *y = rd_values(bits, ny);
    void *out = calloc((size_t)size + 1, 2);
    const cmsis_nn_select_v2_params params = {rank, shape, cs, xs, ys};
    const arm_cmsis_nn_status status =
        bits == 8 ? arm_select_v2_s8(cond, x, y, &params, out) : arm_select_v2_s16(cond, x, y, &params, out);
    print_values(status, out, bits, size);
    free(cond);
    free(x);
    free(y);
    free(out);
}

int main(void)
{
    char name[32];
    while (scanf("%31s", name) == 1)
    {
        if (strcmp(name, "cmp") == 0)
        {
            comparison();
        }
        else if (strcmp(name, "reduce") == 0)
        {
            reduce();
        }
        else if (strcmp(name, "arg") == 0)
        {
            arg();
        }
        else if (strcmp(name, "select") == 0)
        {
            selection();
        }
        else
        {
            fprintf(stderr, "selection_driver: unknown record '%s'\n", name);
            return 2;
        }
        fflush(stdout);
    }
    return 0;
}
