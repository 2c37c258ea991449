/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_relu6_q7, in-place clamp of raw int8 values to [0, 6]. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

void arm_relu6_q7(int8_t *data, uint16_t size)
{
    for (uint32_t i = 0; i < size; ++i)
    {
        data[i] = (int8_t)helia_clamp(data[i], 0, 6);
    }
}
