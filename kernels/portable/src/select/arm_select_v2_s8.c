/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_select_v2_s8, SELECT_V2 with broadcasting (see select_core.h). */

#include "arm_nnfunctions.h"
#include "select_core.h"

arm_cmsis_nn_status arm_select_v2_s8(const bool *condition,
                                     const int8_t *x,
                                     const int8_t *y,
                                     const cmsis_nn_select_v2_params *params,
                                     int8_t *output)
{
    return helia_select_v2(condition, x, y, params, output, 1);
}
