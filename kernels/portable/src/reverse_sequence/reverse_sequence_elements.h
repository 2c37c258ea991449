/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private REVERSE_SEQUENCE of tensors of any element size. */

#ifndef HELIA_PORTABLE_REVERSE_SEQUENCE_ELEMENTS_H
#define HELIA_PORTABLE_REVERSE_SEQUENCE_ELEMENTS_H

#include "arm_nnfunctions.h"

#define HELIA_REVERSE_SEQUENCE_MAX_RANK (8)

/*
 * For each index b along batch_dim, the first seq_lengths[b] elements along seq_dim are reversed and the
 * rest copied; a length of 0 or below copies everything. ARM_CMSIS_NN_ARG_ERROR (nothing written) for a
 * NULL pointer, a rank outside [1, 8], seq_dim or batch_dim outside the rank, or a length above the
 * seq_dim axis, which would read outside the input.
 */
arm_cmsis_nn_status helia_reverse_sequence_elements(const void *input,
                                                    const int32_t *seq_lengths,
                                                    const cmsis_nn_reverse_sequence_params *params,
                                                    void *output,
                                                    size_t element_size);

#endif /* HELIA_PORTABLE_REVERSE_SEQUENCE_ELEMENTS_H */
