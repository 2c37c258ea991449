/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private GATHER and GATHER_ND of tensors of any element size. */

#ifndef HELIA_PORTABLE_GATHER_ELEMENTS_H
#define HELIA_PORTABLE_GATHER_ELEMENTS_H

#include "arm_nnfunctions.h"

/* The two entries take ranks 1 to 4; dims are read in n, h, w, c order for axes 0 to 3. */
#define HELIA_GATHER_MAX_RANK (4)

/*
 * GATHER along params->axis (negative counts from the end) with params->batch_dims leading batch axes
 * (negative counts from the end of the indices): output = input[:axis] + indices[batch_dims:] +
 * input[axis + 1:]. output_dims must hold that shape. ARM_CMSIS_NN_ARG_ERROR for a NULL pointer, a rank
 * outside [1, 4], an output of more than 4 axes, mismatched batch axes or dims, and for an index outside
 * [0, input[axis]) (rows before it are already written).
 */
arm_cmsis_nn_status helia_gather_elements(const void *input,
                                          const cmsis_nn_dims *input_dims,
                                          const int32_t *indices,
                                          const cmsis_nn_dims *indices_dims,
                                          const cmsis_nn_gather_params *params,
                                          void *output,
                                          const cmsis_nn_dims *output_dims,
                                          size_t element_size);

/*
 * GATHER_ND: the last indices axis (depth d) addresses the params axes after params->batch_dims; output =
 * indices[:-1] + params[batch_dims + d:]. Same errors as above, an index outside its axis included.
 */
arm_cmsis_nn_status helia_gather_nd_elements(const void *params_data,
                                             const cmsis_nn_dims *params_dims,
                                             const int32_t *indices,
                                             const cmsis_nn_dims *indices_dims,
                                             const cmsis_nn_gather_nd_params *params,
                                             void *output,
                                             const cmsis_nn_dims *output_dims,
                                             size_t element_size);

/* Axis i of dims (0: n, 1: h, 2: w, 3: c; 1 beyond). */
int32_t helia_dims_axis(const cmsis_nn_dims *dims, int32_t i);

#endif /* HELIA_PORTABLE_GATHER_ELEMENTS_H */
