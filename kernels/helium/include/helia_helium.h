/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot Helium kernels: our own MVE (Armv8.1-M Helium) implementations of layer shapes that
 * ns-cmsis-nn v7.29.2 runs scalar or only with scratch. They take ns-cmsis-nn's structs (from
 * either ns-cmsis-nn's or the portable kernels' arm_nn_types.h), so a module links them beside
 * either library, and give bit-identical results to the portable reference kernels. */

#ifndef HELIA_HELIUM_H
#define HELIA_HELIUM_H

#include <math.h> /* INFINITY, for helia_rescale_params' bounds */

#include "arm_nn_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Set to 1 where the kernels are compiled in: a compiler targeting MVE integer (e.g. -mcpu=cortex-m55).
 * Elsewhere each function runs the kernel library's general entry (the #else branch of its own source), so a
 * module converted for a Helium core also builds and runs on a host. */
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#define HELIA_HELIUM_AVAILABLE 1
#else
#define HELIA_HELIUM_AVAILABLE 0
#endif

/*
 * int8 DEPTHWISE_CONV_2D, 3x3 filter, channel multiplier 1, no scratch (ctx is not read; NULL is fine).
 * Same arguments and result as arm_depthwise_conv_3x3_s8 / arm_depthwise_conv_s8 for these shapes:
 *   filter_dims h = w = 3, filter_dims->c (if not 0) = input_dims->c = output_dims->c (any count),
 *   dilation 1 (ch_mult is read from the dims, not the params), any stride >= 1, any padding >= 0
 *   (leading padding; the trailing padding follows from output_dims), any batch count,
 *   input_offset in [-127, 128] (minus an int8 zero point), output_offset and the activation range
 *   in [-128, 127], shifts in [-31, 30] (per channel), bias may be NULL.
 * Returns ARM_CMSIS_NN_ARG_ERROR (writing nothing) for anything else.
 */
arm_cmsis_nn_status helia_mve_depthwise_conv_3x3_s8(const cmsis_nn_context *ctx,
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
 * values long, holds bias + input_offset * sum(filter row) per output channel (ns-cmsis-nn's MVE
 * convention) and bias_data is then not read; with no such buffer the kernel sums the filter rows
 * itself. input_offset in [-127, 128], output_offset and the activation range in [-128, 127], shifts
 * in [-31, 30] (per channel). Returns ARM_CMSIS_NN_ARG_ERROR (writing nothing) for anything else,
 * grouped convolutions included (filter_dims->c must equal input_dims->c).
 */
arm_cmsis_nn_status helia_mve_convolve_1x1_s8(const cmsis_nn_context *ctx,
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
 * int8 CONV_2D, any filter size, stride >= 1, dilation >= 1 and padding >= 0, one group (filter_dims->c
 * equals input_dims->c), any batch count. Same arguments and result as arm_convolve_s8 (without its
 * upscale_dims). ctx->buf is scratch of at least helia_mve_convolve_s8_buffer_size() bytes here (where
 * HELIA_HELIUM_AVAILABLE is 0 the call runs arm_convolve_s8, which needs what
 * arm_convolve_s8_get_buffer_size says for that build). weight_sum_ctx as helia_mve_convolve_1x1_s8
 * (bias + input_offset * sum of each filter's kh * kw * c values). Ranges of the offsets, activation and
 * shifts as helia_mve_convolve_1x1_s8; ARM_CMSIS_NN_ARG_ERROR (nothing written) for anything else.
 */
arm_cmsis_nn_status helia_mve_convolve_s8(const cmsis_nn_context *ctx,
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

/* Scratch bytes helia_mve_convolve_s8 needs on MVE: two columns of kh * kw * input channels. */
int32_t helia_mve_convolve_s8_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims);

/*
 * int8 FULLY_CONNECTED with per-tensor requantization, no scratch. Same arguments and result as
 * arm_fully_connected_s8: input_dims->n batch rows of filter_dims->n values, output_dims->c outputs per
 * row (any counts >= 1; 0 batch rows write nothing). ctx->buf, when not NULL and at least output_dims->c
 * int32 values long, holds bias + input_offset * (sum(filter row) + depth * filter_offset) per output
 * (ns-cmsis-nn's MVE kernel sums) and bias_data is then not read; else the kernel sums the rows itself.
 * input_offset and filter_offset in [-127, 128], output_offset and the activation range in [-128, 127],
 * shift in [-31, 30]. Returns ARM_CMSIS_NN_ARG_ERROR (writing nothing) for anything else.
 */
arm_cmsis_nn_status helia_mve_fully_connected_s8(const cmsis_nn_context *ctx,
                                                 const cmsis_nn_fc_params *fc_params,
                                                 const cmsis_nn_per_tensor_quant_params *quant_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const int8_t *input_data,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const int8_t *filter_data,
                                                 const cmsis_nn_dims *bias_dims,
                                                 const int32_t *bias_data,
                                                 const cmsis_nn_dims *output_dims,
                                                 int8_t *output_data);

/*
 * int8 convolution to int32 sums, with no bias and no requantization: the integer part of LiteRT's
 * hybrid (dynamic-range) CONV_2D and FULLY_CONNECTED. For every output pixel and channel, the sum over
 * the filter taps that fall inside the input of filter * (input + input_offset); taps in the padding add
 * nothing. Any filter size, stride >= 1, dilation >= 1, padding >= 0, any batch count, one group
 * (filter_dims->c equals input_dims->c), input_offset in [-127, 128]; conv_params' output_offset and
 * activation are not read. ARM_CMSIS_NN_ARG_ERROR (nothing written) for anything else.
 *
 * helia_convolve_s8_s32 is the plain C (reads like the sum above; no scratch, compiled everywhere).
 * helia_mve_convolve_s8_s32 gives the same values on Helium (the plain C where HELIA_HELIUM_AVAILABLE
 * is 0); ctx->buf holds helia_mve_convolve_s8_s32_buffer_size() bytes (0 for a 1x1 filter with stride
 * 1 and no padding, which reads the input in place), and filter_row_sums, if not NULL, the sum of
 * each filter's kh * kw * c values (read only when input_offset is not 0; else the kernel sums them).
 */
arm_cmsis_nn_status helia_convolve_s8_s32(const cmsis_nn_conv_params *conv_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const int8_t *filter_data,
                                          const cmsis_nn_dims *output_dims,
                                          int32_t *output_data);

arm_cmsis_nn_status helia_mve_convolve_s8_s32(const cmsis_nn_context *ctx,
                                              const cmsis_nn_conv_params *conv_params,
                                              const int32_t *filter_row_sums,
                                              const cmsis_nn_dims *input_dims,
                                              const int8_t *input_data,
                                              const cmsis_nn_dims *filter_dims,
                                              const int8_t *filter_data,
                                              const cmsis_nn_dims *output_dims,
                                              int32_t *output_data);

/* Scratch bytes helia_mve_convolve_s8_s32 needs: two columns of kh * kw * input channels, or 0 when it
 * reads the input in place. */
int32_t helia_mve_convolve_s8_s32_buffer_size(const cmsis_nn_conv_params *conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *output_dims);

/*
 * float32 to int8 over the values' own symmetric range, as LiteRT's SymmetricQuantizeFloats (the hybrid
 * layers' run-time input quantization): range = max(|min|, |max|) of input[0 .. count); range 0 gives
 * all zeros and *scale 1; else *scale = range / 127 and output[i] = input[i] * (127 / range) clamped to
 * [-127, 127] (NaN to 0) and rounded half away from zero. count >= 1; ARM_CMSIS_NN_ARG_ERROR (nothing
 * written) otherwise. helia_quantize_symmetric_f32_s8 is the plain C; helia_mve_quantize_symmetric_f32_s8
 * gives the same bytes and scale on Helium (the plain C without MVE floating point).
 */
arm_cmsis_nn_status helia_quantize_symmetric_f32_s8(const float *input, int32_t count, int8_t *output, float *scale);

arm_cmsis_nn_status helia_mve_quantize_symmetric_f32_s8(const float *input, int32_t count, int8_t *output,
                                                         float *scale);

/*
 * int32 sums to float32 outputs, the float part of LiteRT's hybrid CONV_2D and FULLY_CONNECTED as the
 * modules compute it, for pixels x channels values (channels contiguous), output[i] from sums[i]; output
 * may be sums itself (in place). Per value, c its channel:
 *   HELIA_RESCALE_CONV:  value = (float)sum * channel_scale[c] * scale, or (float)sum * scale without
 *                        channel scales; then value += bias[c] with a bias.
 *   HELIA_RESCALE_DENSE: value = bias[c] + (float)sum * (scale * channel_scale[c]) (or * scale); 0.0f
 *                        in place of bias[c] without a bias.
 *   then value = (value < activation_min) ? activation_min : value, and likewise above activation_max
 *   (-INFINITY / INFINITY clamp nothing).
 * pixels, channels >= 1; ARM_CMSIS_NN_ARG_ERROR (nothing written) otherwise. helia_rescale_s32_f32 is
 * the plain C; helia_mve_rescale_s32_f32 gives the same bits on Helium (the plain C without MVE floating
 * point, or when the constants could meet subnormal values, which MVE flushes to zero).
 */
typedef enum
{
    HELIA_RESCALE_CONV = 0,
    HELIA_RESCALE_DENSE = 1
} helia_rescale_order;

typedef struct
{
    int32_t order;              /* helia_rescale_order */
    float scale;                /* the input's scale (times the weight scale when per tensor) */
    const float *channel_scale; /* per output channel weight scales, or NULL */
    const float *bias;          /* per output channel, or NULL */
    float activation_min;
    float activation_max;
} helia_rescale_params;

arm_cmsis_nn_status helia_rescale_s32_f32(const helia_rescale_params *params, const int32_t *sums, int32_t pixels,
                                          int32_t channels, float *output);

arm_cmsis_nn_status helia_mve_rescale_s32_f32(const helia_rescale_params *params, const int32_t *sums,
                                              int32_t pixels, int32_t channels, float *output);

/*
 * int16 TRANSPOSE_CONV (int16 activations, int8 weights) with LiteRT's int64 accumulator, as the modules'
 * inline loop computes it: output (y, x, c) = clamp(((sum + bias[c]) * multiplier[c] + 2^(shift[c] - 1))
 * >> shift[c] + output_offset), sum over the taps with iy * stride_h - pad_h + fy == y (likewise x) of
 * input (iy, ix, k) x filter (c, fy, fx, k). multiplier is LiteRT's rounded to 16 bits and shift the
 * whole right shift (15 - the requantization's shift), in [1, 62]; bias may be NULL. Any filter size,
 * stride >= 1 and leading padding >= 0 (params->padding; padding_offsets and dilation are not read), any
 * output size and batch count; filter_dims->c equals input_dims->c, output_dims->c equals
 * filter_dims->n; input_offset 0 (int16 activations are symmetric); activation within int16.
 * ARM_CMSIS_NN_ARG_ERROR (nothing written) otherwise. helia_transpose_conv_s16 is the plain C;
 * helia_mve_transpose_conv_s16 gives the same outputs on Helium (the plain C without MVE).
 */
arm_cmsis_nn_status helia_transpose_conv_s16(const cmsis_nn_transpose_conv_params *params,
                                             const cmsis_nn_per_channel_quant_params *quant_params,
                                             const cmsis_nn_dims *input_dims, const int16_t *input,
                                             const cmsis_nn_dims *filter_dims, const int8_t *filter,
                                             const int64_t *bias, const cmsis_nn_dims *output_dims,
                                             int16_t *output);

arm_cmsis_nn_status helia_mve_transpose_conv_s16(const cmsis_nn_transpose_conv_params *params,
                                                 const cmsis_nn_per_channel_quant_params *quant_params,
                                                 const cmsis_nn_dims *input_dims, const int16_t *input,
                                                 const cmsis_nn_dims *filter_dims, const int8_t *filter,
                                                 const int64_t *bias, const cmsis_nn_dims *output_dims,
                                                 int16_t *output);

#ifdef __cplusplus
}
#endif

#endif /* HELIA_HELIUM_H */
