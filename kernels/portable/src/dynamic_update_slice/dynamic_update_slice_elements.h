/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private DYNAMIC_UPDATE_SLICE of tensors of any element size. */

#ifndef HELIA_PORTABLE_DYNAMIC_UPDATE_SLICE_ELEMENTS_H
#define HELIA_PORTABLE_DYNAMIC_UPDATE_SLICE_ELEMENTS_H

#include "arm_nnfunctions.h"

#define HELIA_DYNAMIC_UPDATE_SLICE_MAX_RANK (8)

/*
 * output = operand (operand_size elements), then the update block is written at start_indices, each start
 * clamped to [0, operand axis - update axis] so the block fits (LiteRT's rule). ARM_CMSIS_NN_ARG_ERROR for a
 * NULL pointer, a rank outside [1, 8] (nothing written) or an update axis longer than the operand's (after
 * the copy).
 */
arm_cmsis_nn_status helia_dynamic_update_slice_elements(const void *operand,
                                                        const void *update,
                                                        const int32_t *start_indices,
                                                        const cmsis_nn_dynamic_update_slice_params *params,
                                                        void *output,
                                                        size_t element_size);

#endif /* HELIA_PORTABLE_DYNAMIC_UPDATE_SLICE_ELEMENTS_H */
