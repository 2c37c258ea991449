/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_filter_bank_u32_u64, TFLM's SignalFilterBank. */

#include "helia_signal.h"

/*
 * Mel filter bank on an energy spectrum. Channel c (0..num_channels) covers channel_widths[c] bins from
 * channel_frequency_starts[c], with weights from channel_weight_starts[c]: each bin adds weight * energy to
 * channel c and unweight * energy (1 - weight) to channel c + 1. Channel 0 only collects unweights for
 * channel 1 and is not output: output[c - 1] is channel c. The three config arrays hold num_channels + 1
 * entries. Sums are uint64 modulo 2^64, an int16 weight widened to uint64 first (negative ones wrap, as
 * TFLM's static_cast<uint64_t> arithmetic does). Bins and weights outside their arrays are refused.
 */
int32_t helia_signal_filter_bank_u32_u64(const uint32_t *input,
                                         int32_t input_size,
                                         const int16_t *weights,
                                         const int16_t *unweights,
                                         int32_t weights_size,
                                         const int16_t *channel_frequency_starts,
                                         const int16_t *channel_weight_starts,
                                         const int16_t *channel_widths,
                                         int32_t num_channels,
                                         uint64_t *output)
{
    uint64_t weighted = 0;
    uint64_t unweighted = 0;
    if (input == NULL || weights == NULL || unweights == NULL || channel_frequency_starts == NULL ||
        channel_weight_starts == NULL || channel_widths == NULL || output == NULL || num_channels < 0)
    {
        return -1;
    }
    for (int32_t c = 0; c <= num_channels; ++c)
    {
        const int32_t width = channel_widths[c];
        if (width > 0)
        {
            const int32_t freq = channel_frequency_starts[c];
            const int32_t first = channel_weight_starts[c];
            if (freq < 0 || first < 0 || freq + width > input_size || first + width > weights_size)
            {
                return -1;
            }
        }
    }
    for (int32_t c = 0; c <= num_channels; ++c)
    {
        const int32_t freq = channel_frequency_starts[c];
        const int32_t first = channel_weight_starts[c];
        for (int32_t j = 0; j < channel_widths[c]; ++j)
        {
            const uint64_t energy = input[freq + j];
            weighted += (uint64_t)weights[first + j] * energy;
            unweighted += (uint64_t)unweights[first + j] * energy;
        }
        if (c > 0)
        {
            output[c - 1] = weighted;
        }
        weighted = unweighted;
        unweighted = 0;
    }
    return 0;
}
