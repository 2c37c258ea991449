/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the rank reduction and output requantization of the integer SVDF kernels. */

#include "svdf_common.h"

#include "../support/fixed_point.h"

void helia_svdf_reduce_s32(const int32_t *feature_sums,
                           const int32_t *bias,
                           int32_t batches,
                           int32_t feature_batches,
                           int32_t rank,
                           int32_t *unit_sums)
{
    const int32_t units = feature_batches / rank;
    for (int32_t b = 0; b < batches; ++b)
    {
        const int32_t *sums = feature_sums + (size_t)b * feature_batches;
        int32_t *out = unit_sums + (size_t)b * units;
        for (int32_t u = 0; u < units; ++u)
        {
            int32_t acc = bias != NULL ? bias[u] : 0;
            for (int32_t r = 0; r < rank; ++r)
            {
                acc = helia_add_wrapping(acc, sums[u * rank + r]);
            }
            out[u] = acc;
        }
    }
}

void helia_svdf_output_s8(const int32_t *unit_sums,
                          int32_t count,
                          const cmsis_nn_svdf_params *params,
                          const cmsis_nn_per_tensor_quant_params *quant,
                          int8_t *out)
{
    for (int32_t i = 0; i < count; ++i)
    {
        const int32_t scaled = helia_requantize(unit_sums[i], quant->multiplier, quant->shift) + params->output_offset;
        out[i] = (int8_t)helia_clamp(scaled, params->output_activation.min, params->output_activation.max);
    }
}

int helia_svdf_projection_args_ok(int32_t input_size, int32_t time_batches)
{
    /* The reference rejects a negative or near-INT32_MAX column count and a negative state stride. */
    return input_size >= 0 && INT32_MAX - input_size >= 16 && time_batches >= 0;
}
