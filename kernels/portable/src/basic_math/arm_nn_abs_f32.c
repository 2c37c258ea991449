/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_abs_f32, float32 ABS. */

#include <string.h>

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/* Clears the sign bit of every element (-0 and negative NaNs too), as fabsf. */
arm_cmsis_nn_status arm_nn_abs_f32(const float32_t *input, float32_t *output, int32_t block_size)
{
    if (input == NULL || output == NULL || block_size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t i = 0; i < block_size; ++i)
    {
        uint32_t bits;
        memcpy(&bits, &input[i], sizeof(bits));
        bits &= 0x7FFFFFFFu;
        memcpy(&output[i], &bits, sizeof(bits));
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */
