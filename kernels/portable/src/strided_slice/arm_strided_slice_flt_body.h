/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_strided_slice_f16 and arm_strided_slice_f32
 * (arm_strided_slice_f16.c, arm_strided_slice_f32.c), STRIDED_SLICE of a float NHWC tensor.
 *
 * The file including this one defines `flt_t`, the element type, and ARM_STRIDED_SLICE_FLT, the
 * function's name.
 */

#ifndef HELIA_PORTABLE_ARM_STRIDED_SLICE_FLT_BODY_H
#define HELIA_PORTABLE_ARM_STRIDED_SLICE_FLT_BODY_H

#include "strided_slice_elements.h"

/* out[n, h, w, c] = in[begin + index * stride] per axis (see strided_slice_elements.h). */
arm_cmsis_nn_status ARM_STRIDED_SLICE_FLT(const flt_t *input_data,
                                          flt_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims)
{
    return helia_strided_slice_elements(input_data, output_data, sizeof(flt_t), input_dims, begin_dims,
                                        stride_dims, output_dims);
}

#endif /* HELIA_PORTABLE_ARM_STRIDED_SLICE_FLT_BODY_H */
