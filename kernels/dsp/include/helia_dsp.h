/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot DSP kernels: our own Armv7E-M DSP-extension (SIMD32: SXTAB16, SMLABB / SMLATT, SMMULR,
 * SSAT, SEL) implementations of layer shapes ns-cmsis-nn v7.29.2 runs in plain C on a Cortex-M4, M7
 * or M33. They take ns-cmsis-nn's structs (from either ns-cmsis-nn's or the portable kernels'
 * arm_nn_types.h), so a module links them beside either library, and give bit-identical results to
 * the portable reference kernels. Cores with Helium (M55, M85) use kernels/helium instead. */

#ifndef HELIA_DSP_H
#define HELIA_DSP_H

#include "arm_nn_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Set to 1 where the kernels are compiled in: a compiler targeting the DSP extension (Armv7E-M, or
 * Armv8-M Mainline with DSP, e.g. -mcpu=cortex-m4 / cortex-m7 / cortex-m33). Elsewhere each function
 * runs the kernel library's general entry (the #else branch of its own source), so a module converted
 * for a DSP core also builds and runs on a host. */
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define HELIA_DSP_AVAILABLE 1
#else
#define HELIA_DSP_AVAILABLE 0
#endif

/*
 * int8 DEPTHWISE_CONV_2D, 3x3 filter, channel multiplier 1, no scratch (ctx is not read; NULL is fine).
 * Same arguments and result as arm_depthwise_conv_3x3_s8 / arm_depthwise_conv_s8 for these shapes:
 *   filter_dims h = w = 3, filter_dims->c (if not 0) = input_dims->c = output_dims->c (any count),
 *   dilation 1, any stride >= 1, any padding >= 0 (leading padding; the trailing padding follows from
 *   output_dims), any batch count, input_offset in [-127, 128] (minus an int8 zero point),
 *   output_offset and the activation range in [-128, 127], shifts in [-31, 30] (per channel), bias may
 *   be NULL.
 * Returns ARM_CMSIS_NN_ARG_ERROR (writing nothing) for anything else.
 */
arm_cmsis_nn_status helia_dsp_depthwise_conv_3x3_s8(const cmsis_nn_context *ctx,
                                                    const cmsis_nn_dw_conv_params *dw_conv_params,
                                                    const cmsis_nn_per_channel_quant_params *quant_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const int8_t *input_data,
                                                    const cmsis_nn_dims *filter_dims,
                                                    const int8_t *filter_data,
                                                    const cmsis_nn_dims *bias_dims,
                                                    const int32_t *bias_data,
                                                    const cmsis_nn_dims *output_dims,
                                                    int8_t *output_data);

/*
 * int8 CONV_2D with a 1x1 filter, stride 1 and no padding (any batch, height, width, input and output
 * channel counts), no scratch (ctx is not read). Same arguments and result as
 * arm_convolve_1x1_s8_fast: weight_sum_ctx->buf, when not NULL and at least output_dims->c int32
 * values long, holds bias + input_offset * sum(filter row) per output channel and bias_data is then not
 * read; with no such buffer (what modules for DSP cores pass) the kernel adds bias and input offset
 * itself. input_offset in [-127, 128], output_offset and the activation range in [-128, 127], shifts in
 * [-31, 30] (per channel). Returns ARM_CMSIS_NN_ARG_ERROR (writing nothing) for anything else, grouped
 * convolutions included (filter_dims->c must equal input_dims->c). Uses about 2.9 KiB of stack.
 */
arm_cmsis_nn_status helia_dsp_convolve_1x1_s8(const cmsis_nn_context *ctx,
                                              const cmsis_nn_context *weight_sum_ctx,
                                              const cmsis_nn_conv_params *conv_params,
                                              const cmsis_nn_per_channel_quant_params *quant_params,
                                              const cmsis_nn_dims *input_dims,
                                              const int8_t *input_data,
                                              const cmsis_nn_dims *filter_dims,
                                              const int8_t *filter_data,
                                              const cmsis_nn_dims *bias_dims,
                                              const int32_t *bias_data,
                                              const cmsis_nn_dims *output_dims,
                                              int8_t *output_data);

/*
 * int8 CONV_2D, any filter size, stride >= 1, dilation >= 1, padding >= 0 (leading; the trailing
 * padding follows from output_dims), one group (filter_dims->c equals input_dims->c), any batch count.
 * Same arguments and result as arm_convolve_s8 (without its upscale_dims), and no scratch: ctx is not
 * read (NULL is fine) where HELIA_DSP_AVAILABLE is 1; it uses about 4.1 KB of stack instead for filters
 * of up to 576 bytes (kernels/dsp/README.md). Where it is 0 the call runs the kernel library's
 * arm_convolve_s8, and ctx must then hold the scratch arm_convolve_s8_get_buffer_size asks for.
 * weight_sum_ctx, when not NULL, its buf not NULL and at least output_dims->c int32 values long, holds
 * bias + input_offset * sum of each filter's kh * kw * c weights, and bias_data is then not read;
 * otherwise the kernel sums the filters itself (bias_data may be NULL). input_offset in [-127, 128],
 * output_offset and the activation range in [-128, 127], shifts in [-31, 30] (per channel).
 * Returns ARM_CMSIS_NN_ARG_ERROR (writing nothing) for anything else.
 */
arm_cmsis_nn_status helia_dsp_convolve_s8(const cmsis_nn_context *ctx,
                                          const cmsis_nn_context *weight_sum_ctx,
                                          const cmsis_nn_conv_params *conv_params,
                                          const cmsis_nn_per_channel_quant_params *quant_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const int8_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const int32_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          int8_t *output_data);

#ifdef __cplusplus
}
#endif

#endif /* HELIA_DSP_H */
