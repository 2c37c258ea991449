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

/* ---- SignalRfft, SignalFilterBankSpectralSubtraction, SignalPCAN, SignalFilterBankLog ---------------- */
/* Each returns 0 (ARM_CMSIS_NN_SUCCESS) or -1 (ARM_CMSIS_NN_ARG_ERROR) for an argument out of range. */

/*
 * SignalRfft: kiss fft's tables of an N-point real FFT, computed at conversion time
 * (helia_aot/ops/signal_fft_common.py). Complex values are (re, im) pairs.
 */
typedef struct
{
    int32_t fft_length;            /* N, even */
    const int32_t *factors;        /* plan of the N/2-point complex FFT: radix, remaining length, ..., 1 */
    const int16_t *twiddles;       /* N/2 pairs: exp(-2 pi i k / (N/2)) in Q15 */
    const int16_t *split_twiddles; /* N/4 pairs: exp(-i pi ((k + 1) / (N/2) + 1/2)) in Q15 */
} helia_signal_rfft_s16_cfg;

typedef struct
{
    int32_t fft_length;
    const int32_t *factors;
    const int32_t *twiddles;       /* in Q31 */
    const int32_t *split_twiddles; /* in Q31 */
} helia_signal_rfft_s32_cfg;

typedef struct
{
    int32_t fft_length;
    const int32_t *factors;
    const float *twiddles;
    const float *split_twiddles;
} helia_signal_rfft_f32_cfg;

/*
 * The real FFT of one frame: the input_length (<= N) samples, zero-padded to N, give N/2 + 1 complex
 * bins (N + 2 values) at output. The fixed-point builds scale the result by 1/N as kiss fft does.
 * scratch: 2 N + 2 P elements of the sample type, P the largest radix of the plan other than 2, 3, 4,
 * 5 (0 if none). Returns -1 (nothing written) unless N is even and >= 2 and 0 <= input_length <= N.
 */
int32_t helia_signal_rfft_s16(const helia_signal_rfft_s16_cfg *cfg, const int16_t *input, int32_t input_length,
                              int16_t *output, int16_t *scratch);
int32_t helia_signal_rfft_s32(const helia_signal_rfft_s32_cfg *cfg, const int32_t *input, int32_t input_length,
                              int32_t *output, int32_t *scratch);
int32_t helia_signal_rfft_f32(const helia_signal_rfft_f32_cfg *cfg, const float *input, int32_t input_length,
                              float *output, float *scratch);

/* SignalFilterBankSpectralSubtraction's options (TFLM's flexbuffer, as TFLM converts them). */
typedef struct
{
    int32_t num_channels;
    uint32_t smoothing;                     /* even channels' filter coefficient, scale 2^spectral_subtraction_bits */
    uint32_t one_minus_smoothing;
    uint32_t alternate_smoothing;           /* odd channels' */
    uint32_t alternate_one_minus_smoothing;
    uint32_t min_signal_remaining;          /* the output's floor, a fraction of the input */
    uint32_t smoothing_bits;                /* 0 .. 31: extra fraction bits of the noise estimate */
    uint32_t spectral_subtraction_bits;     /* 0 .. 63 */
    int32_t clamping;                       /* nonzero: the estimate follows the signal down */
} helia_signal_spectral_subtraction_cfg;

/*
 * One frame of spectral subtraction: updates the running noise estimate `state` (num_channels values,
 * kept from frame to frame; zeros after a reset), writes the cleaned channels to output and, when
 * noise_estimate is not NULL, a copy of the updated state to it. Returns -1 (nothing written) for
 * num_channels < 0, smoothing_bits > 31 or spectral_subtraction_bits > 63.
 */
int32_t helia_signal_filter_bank_spectral_subtraction_u32(const helia_signal_spectral_subtraction_cfg *cfg,
                                                          const uint32_t *input, uint32_t *output, uint32_t *state,
                                                          uint32_t *noise_estimate);

/*
 * SignalPCAN: per-channel automatic gain control, output[i] = shrink((input[i] * gain(noise[i])) >>
 * snr_shift), the gain read from the 125-entry piecewise-polynomial gain_lut. output may be input.
 * Returns -1 (nothing written) for snr_shift outside 0 .. 63 or num_channels < 0.
 */
int32_t helia_signal_pcan_u32(const uint32_t *input, const uint32_t *noise_estimate, const int16_t *gain_lut,
                              int32_t snr_shift, uint32_t *output, int32_t num_channels);

/*
 * SignalFilterBankLog: output[i] = min(ln(input[i] << correction_bits) * output_scale, 32767) in
 * TFLM's fixed-point logarithm; 0 where the shifted input is 0 or 1. correction_bits 0 .. 31;
 * output_scale is used as uint32 (TFLM's conversion). Returns -1 (nothing written) for correction_bits
 * above 31 or num_channels < 0.
 */
int32_t helia_signal_filter_bank_log_u32(const uint32_t *input, int32_t num_channels, int32_t output_scale,
                                         uint32_t correction_bits, int16_t *output);

/* ---- end of SignalRfft, SignalFilterBankSpectralSubtraction, SignalPCAN, SignalFilterBankLog ---------- */
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
