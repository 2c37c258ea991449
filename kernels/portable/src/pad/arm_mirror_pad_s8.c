/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_mirror_pad_s8, MIRROR_PAD (REFLECT or SYMMETRIC) of int8 tensors. */

#include "arm_nnfunctions.h"
#include "mirror_pad_elements.h"

/* See mirror_pad_elements.h for the mapping and the errors. */
arm_cmsis_nn_status arm_mirror_pad_s8(const int8_t *input, const cmsis_nn_mirror_pad_params *params, int8_t *output)
{
    return helia_mirror_pad_elements(input, params, output, sizeof(int8_t));
}
