/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the comparison walk (see comparison_core.h). */

#include "comparison_core.h"

#include "../support/fixed_point.h"

static int32_t load(const void *data, int32_t bits, int32_t at)
{
    return bits == 8 ? (int32_t)((const int8_t *)data)[at] : (int32_t)((const int16_t *)data)[at];
}

static int32_t rescale(int32_t value, const helia_compare_scaling *s, int32_t left_shift)
{
    return helia_requantize(helia_shift_left(value + s->offset, left_shift), s->mult, s->shift);
}

static bool compare(int32_t lhs, int32_t rhs, arm_nn_compare_operation operation)
{
    switch (operation)
    {
    case ARM_COMPARE_EQUAL:
        return lhs == rhs;
    case ARM_COMPARE_NOT_EQUAL:
        return lhs != rhs;
    case ARM_COMPARE_GREATER:
        return lhs > rhs;
    case ARM_COMPARE_GREATER_EQUAL:
        return lhs >= rhs;
    case ARM_COMPARE_LESS:
        return lhs < rhs;
    default:
        return lhs <= rhs;
    }
}

/* An input's dimension broadcasts when it is 1; otherwise it must equal the output's. */
static bool fits(int32_t in, int32_t out)
{
    return in == out || in == 1;
}

arm_cmsis_nn_status helia_comparison(const void *input_1_data,
                                     const cmsis_nn_dims *input_1_dims,
                                     const helia_compare_scaling *scaling_1,
                                     const void *input_2_data,
                                     const cmsis_nn_dims *input_2_dims,
                                     const helia_compare_scaling *scaling_2,
                                     int32_t bits,
                                     int32_t left_shift,
                                     arm_nn_compare_operation operation,
                                     bool *output_data,
                                     const cmsis_nn_dims *output_dims)
{
    const cmsis_nn_dims *a = input_1_dims;
    const cmsis_nn_dims *b = input_2_dims;
    const cmsis_nn_dims *o = output_dims;
    /* Unsigned, so one test covers both ends whatever size the compiler gives the enum (-fshort-enums on
     * arm-none-eabi makes a signed test of its lower end always false). */
    if ((uint32_t)operation > (uint32_t)ARM_COMPARE_LESS_EQUAL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (!fits(a->n, o->n) || !fits(a->h, o->h) || !fits(a->w, o->w) || !fits(a->c, o->c) || !fits(b->n, o->n) ||
        !fits(b->h, o->h) || !fits(b->w, o->w) || !fits(b->c, o->c))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t n = 0; n < o->n; ++n)
    {
        for (int32_t h = 0; h < o->h; ++h)
        {
            for (int32_t w = 0; w < o->w; ++w)
            {
                for (int32_t c = 0; c < o->c; ++c)
                {
                    /* a broadcast axis (size 1) always reads index 0 */
                    const int32_t at_1 = ((((a->n > 1 ? n : 0) * a->h) + (a->h > 1 ? h : 0)) * a->w + (a->w > 1 ? w : 0)) *
                            a->c + (a->c > 1 ? c : 0);
                    const int32_t at_2 = ((((b->n > 1 ? n : 0) * b->h) + (b->h > 1 ? h : 0)) * b->w + (b->w > 1 ? w : 0)) *
                            b->c + (b->c > 1 ? c : 0);
                    const int32_t lhs = rescale(load(input_1_data, bits, at_1), scaling_1, left_shift);
                    const int32_t rhs = rescale(load(input_2_data, bits, at_2), scaling_2, left_shift);
                    *output_data++ = compare(lhs, rhs, operation);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
