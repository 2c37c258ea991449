/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_fft_auto_scale_s16, TFLM's SignalFftAutoScale. */

#include "helia_signal.h"
#include "signal_bits.h"

/*
 * Scales the frame up by the largest power of two that keeps its peak within int16 and returns that
 * exponent in *scale_bits (the FFT then has the most bits to work with; SignalFilterBankSquareRoot
 * scales back down by it). The peak is TFLM's MaxAbs16, kept in an int16: -32768 turns it into
 * -32768 (its negation does not fit), after which a larger sample replaces it; a negative or zero
 * peak gives exponent 0 (MostSignificantBit32 of it is 32). Samples wrap to int16 after the shift.
 */
int32_t helia_signal_fft_auto_scale_s16(const int16_t *input, int32_t size, int16_t *output, int32_t *scale_bits)
{
    int16_t peak = 0;
    int32_t bits;
    if (input == NULL || output == NULL || scale_bits == NULL || size < 0)
    {
        return -1;
    }
    for (int32_t i = 0; i < size; ++i)
    {
        const int16_t value = input[i];
        if (value > peak)
        {
            peak = value;
        }
        else if (-(int32_t)value > peak)
        {
            peak = value == INT16_MIN ? INT16_MIN : (int16_t)-value;
        }
    }
    /* 16 bits minus the peak's bit length minus the sign bit; the peak widens as TFLM's uint32_t. */
    bits = 16 - (int32_t)helia_signal_bits_msb32((uint32_t)(int32_t)peak) - 1;
    if (bits < 0)
    {
        bits = 0;
    }
    for (int32_t i = 0; i < size; ++i)
    {
        /* In unsigned arithmetic: the low 16 bits of input * 2^bits, read back as int16. */
        const uint16_t scaled = (uint16_t)((uint32_t)(int32_t)input[i] << bits);
        output[i] = scaled > 0x7FFFu ? (int16_t)(int32_t)((int32_t)scaled - 65536) : (int16_t)scaled;
    }
    *scale_bits = bits;
    return 0;
}
