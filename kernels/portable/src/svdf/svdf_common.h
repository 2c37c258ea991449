/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private helpers shared by the integer SVDF kernels. */

#ifndef HELIA_PORTABLE_SVDF_COMMON_H
#define HELIA_PORTABLE_SVDF_COMMON_H

#include "arm_nnfunctions.h"

/*
 * unit_sums[b, u] = bias[u] (0 without bias) + sum over r < rank of feature_sums[b, u * rank + r],
 * for every batch b and unit u < feature_batches / rank; sums wrap modulo 2^32 as the reference's do.
 */
void helia_svdf_reduce_s32(const int32_t *feature_sums,
                           const int32_t *bias,
                           int32_t batches,
                           int32_t feature_batches,
                           int32_t rank,
                           int32_t *unit_sums);

/* out[i] = clamp(requantize(unit_sums[i], multiplier, shift) + output_offset, activation) for i < count. */
void helia_svdf_output_s8(const int32_t *unit_sums,
                          int32_t count,
                          const cmsis_nn_svdf_params *params,
                          const cmsis_nn_per_tensor_quant_params *quant,
                          int8_t *out);

/* Whether the feature projection's sizes are ones the reference kernel accepts (its argument check). */
int helia_svdf_projection_args_ok(int32_t input_size, int32_t time_batches);

#endif /* HELIA_PORTABLE_SVDF_COMMON_H */
