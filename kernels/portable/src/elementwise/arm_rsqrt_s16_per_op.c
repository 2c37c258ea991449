/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_rsqrt_s16_per_op, int16 RSQRT from an interpolated 513-entry table. */

#include "arm_nnfunctions.h"

/* The table is LiteRT's int16 LUT (512 samples over the int16 input range and the end point, in output
 * codes). A non-negative input v picks entry 256 + v / 128 and interpolates towards the next one with
 * the low 7 bits, rounding half up: TFLite's LUTLookup. 1/sqrt is undefined below zero, so a negative
 * input (after the offset) stops the kernel with ARM_CMSIS_NN_ARG_ERROR; the elements before it are
 * written. */
arm_cmsis_nn_status arm_rsqrt_s16_per_op(const int16_t *input,
                                         const int32_t input_offset,
                                         int16_t *output,
                                         const int32_t out_offset,
                                         const int32_t out_activation_min,
                                         const int32_t out_activation_max,
                                         const int32_t block_size,
                                         const int16_t *lut)
{
    for (int32_t i = 0; i < block_size; ++i)
    {
        int32_t value = (int32_t)input[i] - input_offset;
        if (value < 0)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        if (value > INT16_MAX)
        {
            value = INT16_MAX;
        }
        const int32_t index = 256 + (value >> 7);
        const int32_t fraction = value & 0x7f;
        const int32_t low = lut[index];
        const int32_t high = lut[index + 1];
        /* the product may be negative: an arithmetic shift floors it, as ns-cmsis-nn's does */
        int32_t result = low + (((high - low) * fraction + 64) >> 7) + out_offset;
        /* cap first, then raise: the lower bound wins when the range is empty, as in ns-cmsis-nn */
        result = result < out_activation_max ? result : out_activation_max;
        result = result > out_activation_min ? result : out_activation_min;
        output[i] = (int16_t)result;
    }
    return ARM_CMSIS_NN_SUCCESS;
}
