/* SPDX-License-Identifier: Apache-2.0 */
/* Parity firmware (Corstone-300, run on QEMU): random float32 rows (1 to 600 values, counts of every
 * remainder mod 4; magnitudes over float's whole range, ranges about 2^-100 and below, subnormals, signed zeros, all-zero rows, infinities,
 * NaNs first or later, values on the rounding half-points), each quantized by
 * helia_mve_quantize_symmetric_f32_s8 and by its plain C, helia_quantize_symmetric_f32_s8, comparing
 * the int8 outputs and the scale's bits, guard bytes around them included. The driver (counts,
 * refusals, result line) is parity_main.h. HELIA_PARITY_CALLS and HELIA_PARITY_SEED may be set at
 * compile time. */

/* Portable sources compiled with this firmware (tools/bench_lib/helium.py reads this list): none, the
 * reference being helia_quantize_symmetric_f32_s8, the plain C in the Helium kernel's own source */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helia_helium.h"
#include "test_draw.h"

#ifndef HELIA_PARITY_CALLS
#define HELIA_PARITY_CALLS 3000
#endif
#ifndef HELIA_PARITY_SEED
#define HELIA_PARITY_SEED 20261204u
#endif

#define MAX_COUNT 600
#define GUARD 32
#define GUARD_BYTE 0x5A

static float input[MAX_COUNT];
static int8_t expected[MAX_COUNT + sizeof(float) + 2 * GUARD];
static int8_t actual[sizeof(expected)];

typedef struct
{
    int32_t count;
    int32_t null_input;
} call_case;

static float from_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/* 2^e for e in [-126, 127]. */
static float power_of_two(int32_t e)
{
    return from_bits((uint32_t)(e + 127) << 23);
}

static float draw_value(int32_t exponent, float half_point_inverse)
{
    const int32_t kind = between(0, 39);
    const float sign = between(0, 1) ? -1.0f : 1.0f;
    if (kind == 0)
    {
        return sign * 0.0f;
    }
    if (kind == 1)
    {
        return sign * from_bits((uint32_t)between(1, 0x7FFFFF)); /* subnormal */
    }
    if (kind == 2 && half_point_inverse > 0.0f)
    {
        /* Near a rounding half-point of the row's quantization: (k + 0.5) / inverse. */
        return sign * ((float)between(0, 126) + 0.5f) / half_point_inverse;
    }
    /* A mantissa in [1, 2) times 2^(exponent - a few). */
    const float mantissa = from_bits(0x3F800000u | ((uint32_t)next() & 0x7FFFFFu));
    int32_t e = exponent - between(0, 8);
    e = e < -126 ? -126 : e;
    return sign * mantissa * power_of_two(e);
}

static void draw_case(call_case *c)
{
    memset(c, 0, sizeof(*c));
    c->count = between(0, 4) == 0 ? between(1, 8) : between(1, MAX_COUNT);
    /* Mostly ordinary rows; some anywhere in float's range, some about the vector path's smallest
     * range (2^-100) and below it, where subnormals matter. */
    const int32_t spread = between(0, 5);
    const int32_t exponent = spread == 0 ? between(-126, 126) : (spread == 1 ? between(-126, -95) : between(-8, 8));
    /* Rows whose largest magnitude is known, so some values sit on the half-points. */
    const float top = power_of_two(exponent);
    const float inverse = 127.0f / top;
    for (int32_t i = 0; i < c->count; ++i)
    {
        input[i] = draw_value(exponent, inverse);
    }
    if (between(0, 1))
    {
        input[between(0, c->count - 1)] = between(0, 1) ? top : -top;
    }
    const int32_t special = between(0, 19);
    if (special == 0)
    {
        memset(input, 0, sizeof(float) * (size_t)c->count); /* range 0 */
    }
    else if (special == 1)
    {
        input[between(0, c->count - 1)] = from_bits(0x7FC00000u | ((uint32_t)next() & 0x3FFFFFu)); /* NaN */
    }
    else if (special == 2)
    {
        input[0] = from_bits(0xFFC00001u); /* a NaN first: it poisons the range */
    }
    else if (special == 3)
    {
        input[between(0, c->count - 1)] = from_bits(between(0, 1) ? 0x7F800000u : 0xFF800000u); /* infinity */
    }
}

static size_t output_bytes(const call_case *c)
{
    return (size_t)c->count + sizeof(float);
}

static arm_cmsis_nn_status run(const call_case *c, int mve, int8_t *out)
{
    const float *x = c->null_input ? NULL : input;
    float scale = 0.0f;
    const arm_cmsis_nn_status status = mve ? helia_mve_quantize_symmetric_f32_s8(x, c->count, out + GUARD, &scale)
                                           : helia_quantize_symmetric_f32_s8(x, c->count, out + GUARD, &scale);
    if (status == ARM_CMSIS_NN_SUCCESS)
    {
        memcpy(out + GUARD + c->count, &scale, sizeof(scale)); /* the scale's bits compared too */
    }
    return status;
}

static void describe(const call_case *c, int32_t call, size_t first_difference)
{
    printf("mismatch in call %ld: count %ld; first differing byte %ld (the scale from byte %ld)\n", (long)call,
           (long)c->count, (long)first_difference - GUARD, (long)c->count);
}

/* Arguments outside the kernel's contract, one per refusal case: the kernel must refuse them and
 * write nothing. */
#define REFUSAL_CASES 3

static void break_contract(call_case *c, int32_t which)
{
    switch (which)
    {
    case 0: c->count = 0; break;
    case 1: c->count = -4; break;
    default: c->null_input = 1; break;
    }
}

#include "parity_main.h"
