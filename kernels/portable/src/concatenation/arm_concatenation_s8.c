/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_concatenation_s8_{x,y,z,w}, CONCATENATION along one of four axes. */

/*
 * Tensors are seen as [w][z][y][x] with x innermost. Concatenating along an axis copies each
 * contiguous block of the input (everything inside that axis) into the output at `offset` along
 * that axis; the output differs from the input only in the size of that axis.
 */

#include "arm_nnfunctions.h"

/* Copy `blocks` runs of `block_size` bytes, input runs back to back, output runs `output_stride` apart. */
static void copy_blocks(const int8_t *input, int8_t *output, uint32_t blocks, uint32_t block_size, uint32_t output_stride)
{
    for (uint32_t i = 0; i < blocks; ++i)
    {
        memcpy(output + (size_t)i * output_stride, input + (size_t)i * block_size, block_size);
    }
}

void arm_concatenation_s8_x(const int8_t *input,
                            const uint16_t input_x,
                            const uint16_t input_y,
                            const uint16_t input_z,
                            const uint16_t input_w,
                            int8_t *output,
                            const uint16_t output_x,
                            const uint32_t offset_x)
{
    const uint32_t rows = (uint32_t)input_y * input_z * input_w;
    copy_blocks(input, output + offset_x, rows, input_x, output_x);
}

void arm_concatenation_s8_y(const int8_t *input,
                            const uint16_t input_x,
                            const uint16_t input_y,
                            const uint16_t input_z,
                            const uint16_t input_w,
                            int8_t *output,
                            const uint16_t output_y,
                            const uint32_t offset_y)
{
    const uint32_t planes = (uint32_t)input_z * input_w;
    copy_blocks(input, output + (size_t)offset_y * input_x, planes, (uint32_t)input_x * input_y,
                (uint32_t)input_x * output_y);
}

void arm_concatenation_s8_z(const int8_t *input,
                            const uint16_t input_x,
                            const uint16_t input_y,
                            const uint16_t input_z,
                            const uint16_t input_w,
                            int8_t *output,
                            const uint16_t output_z,
                            const uint32_t offset_z)
{
    const uint32_t plane = (uint32_t)input_x * input_y;
    copy_blocks(input, output + (size_t)offset_z * plane, input_w, plane * input_z, plane * output_z);
}

void arm_concatenation_s8_w(const int8_t *input,
                            const uint16_t input_x,
                            const uint16_t input_y,
                            const uint16_t input_z,
                            const uint16_t input_w,
                            int8_t *output,
                            const uint32_t offset_w)
{
    const uint32_t volume = (uint32_t)input_x * input_y * input_z;
    copy_blocks(input, output + (size_t)offset_w * volume, 1u, volume * input_w, 0u);
}
