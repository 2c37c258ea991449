/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_energy_s16_u32, TFLM's SignalEnergy. */

#include "helia_signal.h"

/*
 * spectrum holds complex int16 bins as (real, imaginary) pairs, spectrum_bins of them. For bins
 * start_index <= i < end_index, output[i] = real^2 + imag^2; the sum of two squares up to 2^30 reaches
 * 2^31, so it is taken modulo 2^32 (TFLM adds them in int32 and stores the bits as uint32). TFLM leaves
 * the other output elements unwritten; this kernel sets them to 0 so no stale memory leaks out.
 */
int32_t helia_signal_energy_s16_u32(const int16_t *spectrum,
                                    int32_t spectrum_bins,
                                    int32_t start_index,
                                    int32_t end_index,
                                    uint32_t *output,
                                    int32_t output_size)
{
    if (spectrum == NULL || output == NULL || spectrum_bins < 0 || output_size < 0)
    {
        return -1;
    }
    if (start_index < end_index && (start_index < 0 || end_index > spectrum_bins || end_index > output_size))
    {
        return -1;
    }
    for (int32_t i = 0; i < output_size; ++i)
    {
        if (i >= start_index && i < end_index)
        {
            const int32_t re = spectrum[2 * i];
            const int32_t im = spectrum[2 * i + 1];
            output[i] = (uint32_t)(re * re) + (uint32_t)(im * im);
        }
        else
        {
            output[i] = 0u;
        }
    }
    return 0;
}
