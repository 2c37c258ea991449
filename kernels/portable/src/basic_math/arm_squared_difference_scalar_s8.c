/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_squared_difference_scalar_s8, int8 SQUARED_DIFFERENCE of a scalar and a vector. */

#include "squared_difference_core.h"

/* input_1_vect[0] is the scalar (with input 1's parameters), compared with every element of input_2_vect. */
arm_cmsis_nn_status arm_squared_difference_scalar_s8(const int8_t *input_1_vect,
                                                     const int8_t *input_2_vect,
                                                     const int32_t input_1_offset,
                                                     const int32_t input_1_mult,
                                                     const int32_t input_1_shift,
                                                     const int32_t input_2_offset,
                                                     const int32_t input_2_mult,
                                                     const int32_t input_2_shift,
                                                     const int32_t left_shift,
                                                     int8_t *output,
                                                     const int32_t out_offset,
                                                     const int32_t out_mult,
                                                     const int32_t out_shift,
                                                     const int32_t out_activation_min,
                                                     const int32_t out_activation_max,
                                                     const int32_t block_size)
{
    const helia_sqdiff_params p = {input_1_offset, input_1_mult, input_1_shift, input_2_offset, input_2_mult,
                                   input_2_shift,  left_shift,   out_offset,    out_mult,       out_shift,
                                   out_activation_min, out_activation_max};
    const int32_t a =
        helia_sqdiff_scale_input(input_1_vect[0], input_1_offset, input_1_mult, input_1_shift, left_shift);
    for (int32_t i = 0; i < block_size; ++i)
    {
        const int32_t b = helia_sqdiff_scale_input(input_2_vect[i], input_2_offset, input_2_mult, input_2_shift,
                                                   left_shift);
        output[i] = helia_sqdiff_output_s8(a, b, &p);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
