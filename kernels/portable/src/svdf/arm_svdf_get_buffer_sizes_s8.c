/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the size of arm_svdf_s8's ctx->buf, as each ns-cmsis-nn build asks for it. */

#include "arm_nnfunctions.h"

/* Plain C and DSP builds read no kernel sums. */
int32_t arm_svdf_s8_get_buffer_size(const cmsis_nn_dims *weights_feature_dims)
{
    return arm_svdf_s8_get_buffer_size_dsp(weights_feature_dims);
}

int32_t arm_svdf_s8_get_buffer_size_dsp(const cmsis_nn_dims *weights_feature_dims)
{
    (void)weights_feature_dims;
    return 0;
}

/* Helium builds read one int32 kernel sum per feature. */
int32_t arm_svdf_s8_get_buffer_size_mve(const cmsis_nn_dims *weights_feature_dims)
{
    return weights_feature_dims->n * (int32_t)sizeof(int32_t);
}
