/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private per-element int8 SQUARED_DIFFERENCE (TFLite's quantized rule). */

#include "squared_difference_core.h"
#include "../support/fixed_point.h"

int32_t helia_sqdiff_scale_input(int32_t x, int32_t offset, int32_t mult, int32_t shift, int32_t left_shift)
{
    /* A multiplication, not <<: the offset input may be negative. */
    return helia_requantize((x + offset) * (1 << left_shift), mult, shift);
}

int8_t helia_sqdiff_output_s8(int32_t scaled_1, int32_t scaled_2, const helia_sqdiff_params *p)
{
    /* |a - b| <= 255 * 2^7 for int8 with left shift 7, so the square fits an int32 (TFLite's bound). */
    const int32_t diff = scaled_1 - scaled_2;
    const int32_t value = helia_requantize(diff * diff, p->out_mult, p->out_shift) + p->out_offset;
    return (int8_t)helia_clamp(value, p->act_min, p->act_max);
}
