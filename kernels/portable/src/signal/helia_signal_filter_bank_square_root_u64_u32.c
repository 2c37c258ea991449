/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_filter_bank_square_root_u64_u32, TFLM's SignalFilterBankSquareRoot. */

#include "helia_signal.h"
#include "signal_bits.h"

/*
 * output[i] = round(sqrt(input[i])) >> scale_down_bits, TFLM's Sqrt64 (a rounded integer root, see
 * signal_bits.h) shifted back down by the exponent SignalFftAutoScale scaled the frame up by. A shift
 * outside 0..31 is undefined in TFLM's C++ and refused here.
 */
int32_t helia_signal_filter_bank_square_root_u64_u32(const uint64_t *input,
                                                     int32_t num_channels,
                                                     int32_t scale_down_bits,
                                                     uint32_t *output)
{
    if (input == NULL || output == NULL || num_channels < 0 || scale_down_bits < 0 || scale_down_bits > 31)
    {
        return -1;
    }
    for (int32_t i = 0; i < num_channels; ++i)
    {
        output[i] = helia_signal_bits_sqrt64(input[i]) >> scale_down_bits;
    }
    return 0;
}
