/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_batch_matmul_s8_get_buffer_size (+ _dsp, _mve), what ns-cmsis-nn's builds need. */

#include "arm_nnfunctions.h"

/* ns-cmsis-nn's Helium build keeps one int32 kernel sum per RHS row in ctx->buf; its other builds need none. */
int32_t arm_batch_matmul_s8_get_buffer_size_mve(const cmsis_nn_dims *input_rhs_dims)
{
    return input_rhs_dims->w * (int32_t)sizeof(int32_t);
}

int32_t arm_batch_matmul_s8_get_buffer_size_dsp(const cmsis_nn_dims *input_rhs_dims)
{
    (void)input_rhs_dims;
    return 0;
}

/* The plain-C build's size, like ns-cmsis-nn's plain-C build (the portable kernels read no scratch). */
int32_t arm_batch_matmul_s8_get_buffer_size(const cmsis_nn_dims *input_rhs_dims)
{
    return arm_batch_matmul_s8_get_buffer_size_dsp(input_rhs_dims);
}
