/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: REDUCE_MAX / REDUCE_MIN (see reduce_extreme_core.h). */

#include "reduce_extreme_core.h"

arm_cmsis_nn_status helia_reduce_extreme(const void *input_data,
                                         int32_t bits,
                                         bool want_max,
                                         const cmsis_nn_dims *input_dims,
                                         const cmsis_nn_dims *axis_dims,
                                         void *output_data,
                                         const cmsis_nn_dims *output_dims)
{
    if (input_data == NULL || input_dims == NULL || axis_dims == NULL || output_data == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    const int32_t count_n = axis_dims->n ? input_dims->n : 1;
    const int32_t count_h = axis_dims->h ? in_h : 1;
    const int32_t count_w = axis_dims->w ? in_w : 1;
    const int32_t count_c = axis_dims->c ? in_c : 1;
    int32_t out_at = 0;
    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        for (int32_t h = 0; h < output_dims->h; ++h)
        {
            for (int32_t w = 0; w < output_dims->w; ++w)
            {
                for (int32_t c = 0; c < output_dims->c; ++c)
                {
                    /* start from the type's extreme: an empty reduction stays there */
                    int32_t best = want_max ? (bits == 8 ? INT8_MIN : INT16_MIN) : (bits == 8 ? INT8_MAX : INT16_MAX);
                    for (int32_t rn = 0; rn < count_n; ++rn)
                    {
                        for (int32_t rh = 0; rh < count_h; ++rh)
                        {
                            for (int32_t rw = 0; rw < count_w; ++rw)
                            {
                                for (int32_t rc = 0; rc < count_c; ++rc)
                                {
                                    const int32_t at = (((axis_dims->n ? rn : n) * in_h + (axis_dims->h ? rh : h)) * in_w +
                                                        (axis_dims->w ? rw : w)) * in_c + (axis_dims->c ? rc : c);
                                    const int32_t v = bits == 8 ? ((const int8_t *)input_data)[at]
                                                                : ((const int16_t *)input_data)[at];
                                    if (want_max ? v > best : v < best)
                                    {
                                        best = v;
                                    }
                                }
                            }
                        }
                    }
                    if (bits == 8)
                    {
                        ((int8_t *)output_data)[out_at++] = (int8_t)best;
                    }
                    else
                    {
                        ((int16_t *)output_data)[out_at++] = (int16_t)best;
                    }
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
