/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private NumPy broadcasting of MAXIMUM / MINIMUM (the float kernels). */

#include "minmax_broadcast.h"

/*
 * ns-cmsis-nn walks the output batch by batch, row by row, pixel by pixel, and at the first level
 * where the two inputs' remaining blocks differ it either repeats input 1's block (a single value)
 * against input 2's, or input 2's against input 1's; only the latter swaps the comparison.
 */
static int helia_minmax_second_first(const cmsis_nn_dims *a, const cmsis_nn_dims *b)
{
    const int32_t a_block[4] = {a->n * a->h * a->w * a->c, a->h * a->w * a->c, a->w * a->c, a->c};
    const int32_t b_block[4] = {b->n * b->h * b->w * b->c, b->h * b->w * b->c, b->w * b->c, b->c};
    const int same[4] = {a->n == b->n && a->h == b->h && a->w == b->w && a->c == b->c,
                         a->h == b->h && a->w == b->w && a->c == b->c, a->w == b->w && a->c == b->c, a->c == b->c};
    for (int level = 0; level < 4; ++level)
    {
        if (same[level] || a_block[level] == 1)
        {
            return 0;
        }
        if (b_block[level] == 1)
        {
            return 1;
        }
    }
    return 0;
}

arm_cmsis_nn_status helia_minmax_make_plan(const cmsis_nn_dims *input_1_dims,
                                           const cmsis_nn_dims *input_2_dims,
                                           const cmsis_nn_dims *output_dims,
                                           helia_minmax_plan *plan)
{
    if (input_1_dims == NULL || input_2_dims == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t d1[4] = {input_1_dims->n, input_1_dims->h, input_1_dims->w, input_1_dims->c};
    const int32_t d2[4] = {input_2_dims->n, input_2_dims->h, input_2_dims->w, input_2_dims->c};
    const int32_t out[4] = {output_dims->n, output_dims->h, output_dims->w, output_dims->c};
    size_t s1 = 1;
    size_t s2 = 1;
    for (int axis = 3; axis >= 0; --axis)
    {
        const int ok_1 = d1[axis] == out[axis] || d1[axis] == 1;
        const int ok_2 = d2[axis] == out[axis] || d2[axis] == 1;
        if (!ok_1 || !ok_2)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        plan->shape[axis] = out[axis];
        plan->strides_1[axis] = (d1[axis] == 1) ? 0 : s1;
        plan->strides_2[axis] = (d2[axis] == 1) ? 0 : s2;
        s1 *= (size_t)d1[axis];
        s2 *= (size_t)d2[axis];
    }
    plan->second_first = helia_minmax_second_first(input_1_dims, input_2_dims);
    return ARM_CMSIS_NN_SUCCESS;
}
