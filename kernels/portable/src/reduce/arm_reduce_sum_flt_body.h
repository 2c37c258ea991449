/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_reduce_sum_f16 and arm_reduce_sum_f32 (arm_reduce_sum_f16.c,
 * arm_reduce_sum_f32.c), SUM of a float NHWC tensor over chosen axes.
 *
 * The file including this one defines `flt_t`, the element type, and ARM_REDUCE_SUM_FLT, the
 * function's name.
 */

#ifndef HELIA_PORTABLE_ARM_REDUCE_SUM_FLT_BODY_H
#define HELIA_PORTABLE_ARM_REDUCE_SUM_FLT_BODY_H

/*
 * Every output element (the kept axes; output_dims has the reduced axes as 1) is the sum, in float32
 * and rounded once to the element type at the end, of its input elements in row-major order,
 * starting from 0.0f. An axis is reduced when its axis_dims entry is non-zero.
 */
arm_cmsis_nn_status ARM_REDUCE_SUM_FLT(const flt_t *input_data,
                                       const cmsis_nn_dims *input_dims,
                                       const cmsis_nn_dims *axis_dims,
                                       flt_t *output_data,
                                       const cmsis_nn_dims *output_dims)
{
    if (input_data == NULL || input_dims == NULL || axis_dims == NULL || output_data == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_h = input_dims->h;
    const int32_t in_w = input_dims->w;
    const int32_t in_c = input_dims->c;
    /* how many elements each axis sums over, and whether it follows the output index */
    const int32_t count_n = axis_dims->n ? input_dims->n : 1;
    const int32_t count_h = axis_dims->h ? in_h : 1;
    const int32_t count_w = axis_dims->w ? in_w : 1;
    const int32_t count_c = axis_dims->c ? in_c : 1;

    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        for (int32_t h = 0; h < output_dims->h; ++h)
        {
            for (int32_t w = 0; w < output_dims->w; ++w)
            {
                for (int32_t c = 0; c < output_dims->c; ++c)
                {
                    float32_t sum = 0.0f;
                    for (int32_t rn = 0; rn < count_n; ++rn)
                    {
                        for (int32_t rh = 0; rh < count_h; ++rh)
                        {
                            for (int32_t rw = 0; rw < count_w; ++rw)
                            {
                                for (int32_t rc = 0; rc < count_c; ++rc)
                                {
                                    const size_t at =
                                        (((size_t)(axis_dims->n ? rn : n) * in_h + (axis_dims->h ? rh : h)) * in_w +
                                         (axis_dims->w ? rw : w)) *
                                            in_c +
                                        (axis_dims->c ? rc : c);
                                    sum += (float32_t)input_data[at];
                                }
                            }
                        }
                    }
                    const size_t out_at =
                        (((size_t)n * output_dims->h + h) * output_dims->w + w) * output_dims->c + c;
                    output_data[out_at] = (flt_t)sum;
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* HELIA_PORTABLE_ARM_REDUCE_SUM_FLT_BODY_H */
