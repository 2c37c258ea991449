/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the unary math kernels (arm_sqrt_s8, arm_rsqrt_s16_per_op, arm_relu_generic_s8).
 * Links against either the portable kernels or ns-cmsis-nn. One record per line on stdin:
 *   sqrt_s8 N LUT[256] IN[N]
 *   rsqrt_s16 IN_OFF OUT_OFF ACT_MIN ACT_MAX N LUT[513] IN[N]
 *   relu_generic_s8 IN_OFF OUT_OFF MULT SHIFT ACT_MIN ACT_MAX N IN[N]
 * One line per record on stdout: the status, then the N outputs. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm_nnfunctions.h"

#define DRIVER_NAME "unary_math_driver"
#include "driver_io.h"

static void read_s8(int8_t *dst, long n)
{
    for (long i = 0; i < n; ++i)
    {
        dst[i] = (int8_t)read_integer();
    }
}

static void read_s16(int16_t *dst, long n)
{
    for (long i = 0; i < n; ++i)
    {
        dst[i] = (int16_t)read_integer();
    }
}

int main(void)
{
    char name[64];
    while (scanf("%63s", name) == 1)
    {
        long args[6] = {0};
        long n;
        int status;
        int is16 = 0;
        void *in;
        void *out;
        if (strcmp(name, "sqrt_s8") == 0)
        {
            int8_t lut[256];
            n = read_integer();
            in = calloc((size_t)n + 1, 1);
            out = calloc((size_t)n + 1, 1);
            read_s8(lut, 256);
            read_s8((int8_t *)in, n);
            const cmsis_nn_dims dims = {1, 1, 1, (int32_t)n};
            status = arm_sqrt_s8((const int8_t *)in, &dims, (int8_t *)out, lut);
        }
        else if (strcmp(name, "rsqrt_s16") == 0)
        {
            int16_t lut[513];
            for (int k = 0; k < 4; ++k)
            {
                args[k] = read_integer();
            }
            n = read_integer();
            in = calloc((size_t)n + 1, 2);
            out = calloc((size_t)n + 1, 2);
            read_s16(lut, 513);
            read_s16((int16_t *)in, n);
            is16 = 1;
            status = arm_rsqrt_s16_per_op((const int16_t *)in, (int32_t)args[0], (int16_t *)out, (int32_t)args[1],
                                          (int32_t)args[2], (int32_t)args[3], (int32_t)n, lut);
        }
        else if (strcmp(name, "relu_generic_s8") == 0)
        {
            for (int k = 0; k < 6; ++k)
            {
                args[k] = read_integer();
            }
            n = read_integer();
            in = calloc((size_t)n + 1, 1);
            out = calloc((size_t)n + 1, 1);
            read_s8((int8_t *)in, n);
            status = arm_relu_generic_s8((const int8_t *)in, (int32_t)args[0], (int32_t)args[1], (int32_t)args[2],
                                         (int32_t)args[3], (int32_t)args[4], (int32_t)args[5], (int8_t *)out,
                                         (int32_t)n);
        }
        else
        {
            fprintf(stderr, "unary_math_driver: unknown record '%s'\n", name);
            return 2;
        }
        printf("%d", status);
        for (long i = 0; i < n; ++i)
        {
            printf(" %d", is16 ? (int)((int16_t *)out)[i] : (int)((int8_t *)out)[i]);
        }
        printf("\n");
        free(in);
        free(out);
    }
    return 0;
}
