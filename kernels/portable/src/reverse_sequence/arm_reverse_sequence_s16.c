/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_reverse_sequence_s16, REVERSE_SEQUENCE of int16 tensors of rank 1 to 8. */

#include "arm_nnfunctions.h"
#include "reverse_sequence_elements.h"

/* See reverse_sequence_elements.h for what is reversed and the errors. */
arm_cmsis_nn_status arm_reverse_sequence_s16(const int16_t *input,
                                             const int32_t *seq_lengths,
                                             const cmsis_nn_reverse_sequence_params *params,
                                             int16_t *output)
{
    return helia_reverse_sequence_elements(input, seq_lengths, params, output, sizeof(int16_t));
}
