/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot Helium kernels: what the convolutions share: their quantization arguments' contract, the
 * accumulators' starting value, the 2 x 2 matrix-product tile (two rows of input values by two filter
 * rows, VMLADAVA over sixteen bytes per step) and the tile's requantization. */

#ifndef HELIA_HELIUM_MVE_TILE_H
#define HELIA_HELIUM_MVE_TILE_H

#include <arm_mve.h>
#include <stddef.h>

#include "arm_nn_types.h"
#include "mve_requantize.h"

/* The convolutions' contract on the quantization arguments: input_offset in [-127, 128] (minus an int8
 * zero point), output_offset and the activation range in [-128, 127], every shift in [-31, 30]. */
HELIA_MVE_INLINE int32_t helia_mve_conv_quantization_ok(const cmsis_nn_conv_params *params,
                                                       const cmsis_nn_per_channel_quant_params *quant,
                                                       int32_t channels)
{
    if (params->input_offset < -127 || params->input_offset > 128 || params->output_offset < -128 ||
        params->output_offset > 127 || params->activation.min < -128 || params->activation.max > 127 ||
        params->activation.min > params->activation.max)
    {
        return 0;
    }
    for (int32_t c = 0; c < channels; ++c)
    {
        if (quant->shift[c] < -31 || quant->shift[c] > 30)
        {
            return 0;
        }
    }
    return 1;
}

/* The module's precomputed bias + input_offset * sum(filter row) per output channel (ns-cmsis-nn's MVE
 * convention), or NULL when weight_sum_ctx holds none. */
HELIA_MVE_INLINE const int32_t *helia_mve_weight_sums(const cmsis_nn_context *weight_sum_ctx, int32_t channels)
{
    return weight_sum_ctx != NULL && weight_sum_ctx->buf != NULL &&
                   weight_sum_ctx->size >= channels * (int32_t)sizeof(int32_t)
               ? (const int32_t *)weight_sum_ctx->buf
               : NULL;
}

/* The accumulator's starting value for output channel `channel`: bias + input_offset * sum(filter row),
 * read from weight_sums when the module has them, else summed here. */
HELIA_MVE_INLINE int32_t helia_mve_row_start(const int32_t *weight_sums, const int8_t *filter_row, int32_t depth,
                                             const int32_t *bias, int32_t channel, int32_t input_offset)
{
    if (weight_sums != NULL)
    {
        return weight_sums[channel];
    }
    int32_t sum = 0;
    for (int32_t k = 0; k < depth; k += 16)
    {
        const mve_pred16_t lanes = vctp8q((uint32_t)(depth - k));
        sum = vaddvaq_p_s8(sum, vldrbq_z_s8(filter_row + k, lanes), lanes);
    }
    return (bias != NULL ? bias[channel] : 0) + input_offset * sum;
}

/* Sums of a 2 x 2 tile: pixels x0, x1 by filter rows w0, w1 over `depth` channels, on top of the
 * starting values; returned as one vector (x0 w0, x0 w1, x1 w0, x1 w1). */
HELIA_MVE_INLINE int32x4_t helia_mve_tile_2x2(const int8_t *x0, const int8_t *x1, const int8_t *w0,
                                              const int8_t *w1, int32_t depth, int32_t start_0, int32_t start_1)
{
    int32_t acc_00 = start_0;
    int32_t acc_01 = start_1;
    int32_t acc_10 = start_0;
    int32_t acc_11 = start_1;
    int32x4_t sums;
    /* Tail-predicated loop over the depth, sixteen channels per step; inactive lanes load zeros and
     * add nothing. */
    __asm volatile("   wlstp.8         lr, %[count], 1f         \n"
                   "2:                                          \n"
                   "   vldrb.8         q0, [%[w0]], #16         \n"
                   "   vldrb.8         q1, [%[x0]], #16         \n"
                   "   vmladava.s8     %[acc_00], q0, q1        \n"
                   "   vldrb.8         q2, [%[x1]], #16         \n"
                   "   vmladava.s8     %[acc_10], q0, q2        \n"
                   "   vldrb.8         q0, [%[w1]], #16         \n"
                   "   vmladava.s8     %[acc_01], q0, q1        \n"
                   "   vmladava.s8     %[acc_11], q0, q2        \n"
                   "   letp            lr, 2b                   \n"
                   "1:                                          \n"
                   "   vmov            %q[sums][2], %q[sums][0], %[acc_00], %[acc_10] \n"
                   "   vmov            %q[sums][3], %q[sums][1], %[acc_01], %[acc_11] \n"
                   : [w0] "+r"(w0), [w1] "+r"(w1), [x0] "+r"(x0), [x1] "+r"(x1), [acc_00] "+Te"(acc_00),
                     [acc_01] "+Te"(acc_01), [acc_10] "+Te"(acc_10), [acc_11] "+Te"(acc_11), [sums] "=w"(sums)
                   : [count] "r"(depth)
                   : "q0", "q1", "q2", "memory", "r14");
    return sums;
}

/* A tile's four sums requantized (per-lane multiplier and shift split as in mve_requantize.h), offset
 * and clamped to the activation range: the bytes to store. */
HELIA_MVE_INLINE int32x4_t helia_mve_tile_output(int32x4_t acc, int32x4_t multiplier, int32x4_t left,
                                                 int32x4_t neg_right, int32_t with_left, int32_t output_offset,
                                                 int32x4_t act_min, int32x4_t act_max)
{
    acc = helia_mve_requantize_q(acc, multiplier, left, neg_right, with_left);
    return vminq_s32(vmaxq_s32(vaddq_n_s32(acc, output_offset), act_min), act_max);
}

#endif /* HELIA_HELIUM_MVE_TILE_H */
