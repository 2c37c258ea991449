/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: helia_signal_filter_bank_spectral_subtraction_u32, TFLM's
 * SignalFilterBankSpectralSubtraction.
 */

#include <string.h>

#include "helia_signal.h"

/*
 * Per channel: the noise estimate is a one-pole low-pass of the signal (even channels with smoothing,
 * odd ones with the alternate coefficients), kept with smoothing_bits more fraction bits than the
 * signal; the output is the signal minus the estimate (never below zero), but at least
 * min_signal_remaining of the signal. Everything is unsigned and wraps as uint32 / uint64 would.
 */
int32_t helia_signal_filter_bank_spectral_subtraction_u32(const helia_signal_spectral_subtraction_cfg *cfg,
                                                          const uint32_t *input, uint32_t *output, uint32_t *state,
                                                          uint32_t *noise_estimate)
{
    if (cfg == NULL || input == NULL || output == NULL || state == NULL || cfg->num_channels < 0 ||
        cfg->smoothing_bits > 31u || cfg->spectral_subtraction_bits > 63u)
    {
        return -1;
    }
    const uint32_t fraction_bits = cfg->smoothing_bits;
    const uint32_t scale_bits = cfg->spectral_subtraction_bits;
    for (int32_t i = 0; i < cfg->num_channels; ++i)
    {
        const int odd = (i & 1) != 0;
        const uint32_t smoothing = odd ? cfg->alternate_smoothing : cfg->smoothing;
        const uint32_t keep = odd ? cfg->alternate_one_minus_smoothing : cfg->one_minus_smoothing;
        const uint32_t signal = input[i] << fraction_bits;
        state[i] = (uint32_t)(((uint64_t)signal * smoothing + (uint64_t)state[i] * keep) >> scale_bits);

        uint32_t estimate = state[i];
        if (estimate > signal)
        {
            estimate = signal; /* the difference below stays non-negative */
            if (cfg->clamping)
            {
                state[i] = signal;
            }
        }
        const uint32_t floor = (uint32_t)(((uint64_t)input[i] * cfg->min_signal_remaining) >> scale_bits);
        const uint32_t subtracted = (signal - estimate) >> fraction_bits;
        output[i] = subtracted > floor ? subtracted : floor;
    }
    if (noise_estimate != NULL)
    {
        memcpy(noise_estimate, state, (size_t)cfg->num_channels * sizeof(uint32_t));
    }
    return 0;
}
