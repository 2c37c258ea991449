/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private int8-input SOFTMAX shared by arm_softmax_s8 and arm_softmax_s8_s16. */

#ifndef HELIA_PORTABLE_SOFTMAX_S8_COMMON_H
#define HELIA_PORTABLE_SOFTMAX_S8_COMMON_H

#include <stddef.h>
#include <stdint.h>

/*
 * Softmax of num_rows rows of int8 logits. output_bits selects the output: 8 writes int8_t
 * probabilities p * 2^8 - 128 to output, 16 writes int16_t probabilities p * 2^16 - 32768.
 */
void helia_softmax_s8_rows(const int8_t *input,
                           int32_t num_rows,
                           int32_t row_size,
                           int32_t mult,
                           int32_t shift,
                           int32_t diff_min,
                           int32_t output_bits,
                           void *output);

#endif /* HELIA_PORTABLE_SOFTMAX_S8_COMMON_H */
