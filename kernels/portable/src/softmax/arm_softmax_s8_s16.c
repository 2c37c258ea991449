/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_softmax_s8_s16, int8 SOFTMAX with an int16 output (scale 1/65536, zero point -32768). */

#include "arm_nnfunctions.h"
#include "softmax_s8_common.h"

void arm_softmax_s8_s16(const int8_t *input,
                        const int32_t num_rows,
                        const int32_t row_size,
                        const int32_t mult,
                        const int32_t shift,
                        const int32_t diff_min,
                        int16_t *output)
{
    helia_softmax_s8_rows(input, num_rows, row_size, mult, shift, diff_min, 16, output);
}
