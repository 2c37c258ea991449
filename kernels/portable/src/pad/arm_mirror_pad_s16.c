/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_mirror_pad_s16, MIRROR_PAD (REFLECT or SYMMETRIC) of int16 tensors. */

#include "arm_nnfunctions.h"
#include "mirror_pad_elements.h"

/* See mirror_pad_elements.h for the mapping and the errors. */
arm_cmsis_nn_status arm_mirror_pad_s16(const int16_t *input, const cmsis_nn_mirror_pad_params *params, int16_t *output)
{
    return helia_mirror_pad_elements(input, params, output, sizeof(int16_t));
}
