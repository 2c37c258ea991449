/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private SELECT_V2 walk shared by arm_select_v2_s8 and arm_select_v2_s16. */

#ifndef HELIA_PORTABLE_SELECT_CORE_H
#define HELIA_PORTABLE_SELECT_CORE_H

#include "arm_nnfunctions.h"

/* output[i] = condition[i] ? x[i] : y[i] for elements of element_bytes bytes, each input read at
 * sum(coordinate[d] * its stride[d]) over the params' rank (1 to 8) output axes. */
arm_cmsis_nn_status helia_select_v2(const bool *condition,
                                    const void *x,
                                    const void *y,
                                    const cmsis_nn_select_v2_params *params,
                                    void *output,
                                    int32_t element_bytes);

#endif /* HELIA_PORTABLE_SELECT_CORE_H */
