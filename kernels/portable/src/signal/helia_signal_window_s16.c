/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: helia_signal_window_s16, TFLM's SignalWindow. */

#include "helia_signal.h"
#include "signal_bits.h"

/*
 * Each block of window_size samples is multiplied element-wise by the window, shifted right by
 * `shift` (rounding toward minus infinity, as C++'s >> of the int32 product does in TFLM) and
 * saturated to int16. input_size is the whole input; it must be a multiple of window_size.
 */
int32_t helia_signal_window_s16(const int16_t *input,
                                const int16_t *window,
                                int32_t window_size,
                                int32_t input_size,
                                int32_t shift,
                                int16_t *output)
{
    if (input == NULL || window == NULL || output == NULL || window_size <= 0 || input_size < 0 ||
        input_size % window_size != 0 || shift < 0 || shift > 31)
    {
        return -1;
    }
    for (int32_t block = 0; block < input_size; block += window_size)
    {
        for (int32_t i = 0; i < window_size; ++i)
        {
            const int32_t product = (int32_t)input[block + i] * (int32_t)window[i];
            int32_t value = helia_signal_bits_asr32(product, shift);
            value = value < INT16_MIN ? INT16_MIN : (value > INT16_MAX ? INT16_MAX : value);
            output[block + i] = (int16_t)value;
        }
    }
    return 0;
}
