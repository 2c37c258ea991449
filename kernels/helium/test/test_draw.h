/* SPDX-License-Identifier: Apache-2.0 */
/* What the Helium parity firmware draw alike for every kernel: int8 data, the offsets and activation
 * range, the per-channel requantization; and the weight sums a module for ns-cmsis-nn's MVE build
 * precomputes (also used by the benches). */

#ifndef HELIA_HELIUM_TEST_DRAW_H
#define HELIA_HELIUM_TEST_DRAW_H

#include <stdint.h>

#include "arm_nn_types.h"
#include "test_random.h"

static inline void draw_bytes(int8_t *dst, int32_t n)
{
    for (int32_t i = 0; i < n; ++i)
    {
        dst[i] = (int8_t)between(-128, 127);
    }
}

/* Offsets: the extremes often (zero points -128 and 127 are common), else anywhere; the activation
 * range the whole of int8 a third of the time, else any ordered pair. */
static inline void draw_offsets(int32_t *input_offset, int32_t *output_offset, cmsis_nn_activation *activation)
{
    const int32_t o = between(0, 3);
    *input_offset = o == 0 ? 128 : (o == 1 ? -127 : between(-127, 128));
    *output_offset = between(0, 2) == 0 ? -128 : between(-128, 127);
    if (between(0, 2) == 0)
    {
        activation->min = -128;
        activation->max = 127;
        return;
    }
    const int32_t a = between(-128, 127);
    const int32_t b = between(-128, 127);
    activation->min = a < b ? a : b;
    activation->max = a < b ? b : a;
}

/* Per channel: a bias within a random power of two, a multiplier and a shift. */
static inline void draw_requantization(int32_t *bias, int32_t *multiplier, int32_t *shift, int32_t channels)
{
    const int32_t bias_bits = between(0, 22);
    for (int32_t i = 0; i < channels; ++i)
    {
        bias[i] = between(-(1 << bias_bits), 1 << bias_bits);
        /* TFLite multipliers are in [2^30, 2^31); a few negative ones exercise the rounding of both signs. */
        const int32_t m = between(1 << 30, INT32_MAX);
        multiplier[i] = between(0, 15) == 0 ? -m : m;
        /* Right shifts mostly (real layers), positive ones sometimes, the extremes now and then. */
        const int32_t s = between(0, 19);
        shift[i] = s == 0 ? -31 : (s == 1 ? between(1, 10) : (s == 2 ? 0 : between(-18, -1)));
    }
}

/* bias + input_offset * sum(filter row) per output channel (bias may be NULL). */
static inline void compute_weight_sums(int32_t *weight_sum, const int8_t *filter, int32_t channels, int32_t depth,
                                       const int32_t *bias, int32_t input_offset)
{
    for (int32_t i = 0; i < channels; ++i)
    {
        int32_t row_sum = 0;
        for (int32_t k = 0; k < depth; ++k)
        {
            row_sum += filter[i * depth + k];
        }
        weight_sum[i] = (bias != NULL ? bias[i] : 0) + input_offset * row_sum;
    }
}

#endif /* HELIA_HELIUM_TEST_DRAW_H */
