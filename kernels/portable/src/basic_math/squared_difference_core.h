/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private per-element int8 SQUARED_DIFFERENCE (TFLite's quantized rule). */

#ifndef HELIA_PORTABLE_SQUARED_DIFFERENCE_CORE_H
#define HELIA_PORTABLE_SQUARED_DIFFERENCE_CORE_H

#include "arm_nnfunctions.h"

typedef struct
{
    int32_t input_1_offset;
    int32_t input_1_mult;
    int32_t input_1_shift;
    int32_t input_2_offset;
    int32_t input_2_mult;
    int32_t input_2_shift;
    int32_t left_shift;
    int32_t out_offset;
    int32_t out_mult;
    int32_t out_shift;
    int32_t act_min;
    int32_t act_max;
} helia_sqdiff_params;

/* One input rescaled: (x + offset) * 2^left_shift, requantized by its multiplier. */
int32_t helia_sqdiff_scale_input(int32_t x, int32_t offset, int32_t mult, int32_t shift, int32_t left_shift);

/* The output code of two already rescaled inputs: (a - b)^2 requantized, offset, clamped. */
int8_t helia_sqdiff_output_s8(int32_t scaled_1, int32_t scaled_2, const helia_sqdiff_params *p);

#endif /* HELIA_PORTABLE_SQUARED_DIFFERENCE_CORE_H */
