/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_transpose_f16 and arm_transpose_f32 (arm_transpose_f16.c,
 * arm_transpose_f32.c), TRANSPOSE of float tensors with 1 to 4 dimensions.
 *
 * The file including this one defines `flt_t`, the element type, `flt_transpose_params_t`, its
 * cmsis_nn_transpose_params_*, and ARM_TRANSPOSE_FLT, the function's name.
 */

#ifndef HELIA_PORTABLE_ARM_TRANSPOSE_FLT_BODY_H
#define HELIA_PORTABLE_ARM_TRANSPOSE_FLT_BODY_H

#include "transpose_elements.h"

/* Output axis i is input axis params->perm[i] over the first params->num_dims axes; ctx is not read. */
arm_cmsis_nn_status ARM_TRANSPOSE_FLT(const cmsis_nn_context *ctx,
                                      const flt_transpose_params_t *params,
                                      const cmsis_nn_dims *input_dims,
                                      const flt_t *input,
                                      const cmsis_nn_dims *output_dims,
                                      flt_t *output)
{
    (void)ctx;
    if (params == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return helia_transpose_elements(input, output, sizeof(flt_t), params->num_dims, params->perm,
                                    (int32_t)params->layout, input_dims, output_dims);
}

#endif /* HELIA_PORTABLE_ARM_TRANSPOSE_FLT_BODY_H */
