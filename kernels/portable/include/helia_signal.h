/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: TensorFlow Lite Micro's Signal operators (the audio front end). */

/*
 * ns-cmsis-nn has no kernels for TFLM's Signal custom operators (SignalWindow, SignalRfft,
 * SignalFilterBank, ...), so these are helia-aot's own API, named helia_signal_<operator>_<types>.
 * Each computes exactly what TFLM's reference kernel (signal/src, signal/micro/kernels) computes,
 * bit for bit: integer arithmetic only, no libm, no dynamic memory. Parameters TFLM reads from the
 * operator's FlexBuffer options are plain arguments here; the compiler passes them as constants.
 * A kernel returns 0 on success and -1 when an argument is out of its documented range (as
 * arm_cmsis_nn_status: ARM_CMSIS_NN_SUCCESS / ARM_CMSIS_NN_ARG_ERROR).
 * See kernels/portable/README.md ("TFLM Signal kernels") for the conventions.
 */

#ifndef HELIA_SIGNAL_H
#define HELIA_SIGNAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Each helper appends its operators' declarations below in one block with a header comment. */

/* ==== SignalWindow, SignalFftAutoScale, SignalEnergy, SignalFilterBank, SignalFilterBankSquareRoot ==== */

/* SignalWindow: output = saturate_int16((input * window) >> shift), the window repeated over each
 * block of window_size samples; input_size (a multiple of window_size) samples; shift in 0..31. */
int32_t helia_signal_window_s16(const int16_t *input,
                                const int16_t *window,
                                int32_t window_size,
                                int32_t input_size,
                                int32_t shift,
                                int16_t *output);

/* SignalFftAutoScale: output = input * 2^scale (wrapping to int16), *scale_bits = scale, the largest
 * exponent that keeps the frame's peak (TFLM's MaxAbs16) within int16 (0 for a silent frame). */
int32_t helia_signal_fft_auto_scale_s16(const int16_t *input, int32_t size, int16_t *output, int32_t *scale_bits);

/* SignalEnergy: output[i] = re^2 + im^2 (mod 2^32) of complex bin i of spectrum ((re, im) int16 pairs,
 * spectrum_bins bins) for start_index <= i < end_index; the other output_size elements are set to 0. */
int32_t helia_signal_energy_s16_u32(const int16_t *spectrum,
                                    int32_t spectrum_bins,
                                    int32_t start_index,
                                    int32_t end_index,
                                    uint32_t *output,
                                    int32_t output_size);

/* SignalFilterBank: num_channels uint64 mel channels of an energy spectrum (input_size uint32 bins);
 * weights / unweights have weights_size entries, the three channel arrays num_channels + 1 (entry 0
 * is TFLM's scratch channel). Returns -1 when a channel reaches outside input or weights. */
int32_t helia_signal_filter_bank_u32_u64(const uint32_t *input,
                                         int32_t input_size,
                                         const int16_t *weights,
                                         const int16_t *unweights,
                                         int32_t weights_size,
                                         const int16_t *channel_frequency_starts,
                                         const int16_t *channel_weight_starts,
                                         const int16_t *channel_widths,
                                         int32_t num_channels,
                                         uint64_t *output);

/* SignalFilterBankSquareRoot: output[i] = rounded_sqrt(input[i]) >> scale_down_bits (0..31). */
int32_t helia_signal_filter_bank_square_root_u64_u32(const uint64_t *input,
                                                     int32_t num_channels,
                                                     int32_t scale_down_bits,
                                                     uint32_t *output);

/* ==== end of the SignalWindow ... SignalFilterBankSquareRoot block ==== */

#ifdef __cplusplus
}
#endif

#endif /* HELIA_SIGNAL_H */
