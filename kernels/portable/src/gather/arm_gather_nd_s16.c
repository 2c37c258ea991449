/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_gather_nd_s16, GATHER_ND of int16 tensors of rank 1 to 4. */

#include "arm_nnfunctions.h"
#include "gather_elements.h"

/* Slices of params addressed by the index vectors; see gather_elements.h for the shapes and errors. */
arm_cmsis_nn_status arm_gather_nd_s16(const int16_t *params_data,
                                      const cmsis_nn_dims *params_dims,
                                      const int32_t *indices_data,
                                      const cmsis_nn_dims *indices_dims,
                                      const cmsis_nn_gather_nd_params *params,
                                      int16_t *output_data,
                                      const cmsis_nn_dims *output_dims)
{
    return helia_gather_nd_elements(params_data, params_dims, indices_data, indices_dims, params, output_data,
                                    output_dims, sizeof(int16_t));
}
