/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the int8 / int16 subset of the ns-cmsis-nn v7.29.2 public API, same declarations. */

/*
 * Every function declared here is implemented in plain C99 under kernels/portable/src and gives
 * bit-identical results to ns-cmsis-nn's plain-C build. Differences from that library:
 *  - no kernel reads ctx->buf or weight_sum_ctx; both may be NULL or of any size;
 *  - *_get_buffer_size functions still report what ns-cmsis-nn reports, so callers can size
 *    scratch for either library.
 * See kernels/portable/README.md for the list and the known deliberate differences.
 */

#ifndef ARM_NNFUNCTIONS_H
#define ARM_NNFUNCTIONS_H

#include "arm_nn_math_types.h"
#include "arm_nn_types.h"

/* The float32 / float16 entry points (arm_nnfunctions_flt.h), when the build enables them. */
#if ARM_NN_FLOAT_API_ENABLED
    #include "arm_nnfunctions_flt.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- CONV_2D ------------------------------------------------------------------------------ */

/* General s8 convolution (groups = input channels / filter channels). upscale_dims may be NULL.
 * An upscale_dims h or w of 2 means input_dims describe the input stretched 2x along that axis,
 * with the inserted odd rows/columns holding the input zero point. */
arm_cmsis_nn_status arm_convolve_s8(const cmsis_nn_context *ctx,
                                    const cmsis_nn_context *weight_sum_ctx,
                                    const cmsis_nn_conv_params *conv_params,
                                    const cmsis_nn_per_channel_quant_params *quant_params,
                                    const cmsis_nn_dims *input_dims,
                                    const int8_t *input_data,
                                    const cmsis_nn_dims *filter_dims,
                                    const int8_t *filter_data,
                                    const cmsis_nn_dims *bias_dims,
                                    const int32_t *bias_data,
                                    const cmsis_nn_dims *upscale_dims,
                                    const cmsis_nn_dims *output_dims,
                                    int8_t *output_data);

/* 1x1 convolution, no padding, stride 1: one matrix product over all pixels. */
arm_cmsis_nn_status arm_convolve_1x1_s8_fast(const cmsis_nn_context *ctx,
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

/* 1x1 convolution, no padding, any stride. */
arm_cmsis_nn_status arm_convolve_1x1_s8(const cmsis_nn_context *ctx,
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

/* 1xN convolution on a single input row. */
arm_cmsis_nn_status arm_convolve_1_x_n_s8(const cmsis_nn_context *ctx,
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

/* Picks 1x1_fast, 1x1, 1_x_n or the general convolution from the shapes. */
arm_cmsis_nn_status arm_convolve_wrapper_s8(const cmsis_nn_context *ctx,
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

int32_t arm_convolve_s8_get_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims);

int32_t arm_convolve_1x1_s8_fast_get_buffer_size(const cmsis_nn_dims *input_dims);

int32_t arm_convolve_1_x_n_s8_get_buffer_size(const cmsis_nn_conv_params *conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *output_dims);

int32_t arm_convolve_wrapper_s8_get_buffer_size(const cmsis_nn_conv_params *conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const cmsis_nn_dims *filter_dims,
                                                const cmsis_nn_dims *output_dims);

int32_t arm_convolve_wrapper_s8_get_buffer_size_mve(const cmsis_nn_conv_params *conv_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const cmsis_nn_dims *filter_dims,
                                                    const cmsis_nn_dims *output_dims);

int32_t arm_convolve_wrapper_s8_get_buffer_size_dsp(const cmsis_nn_conv_params *conv_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const cmsis_nn_dims *filter_dims,
                                                    const cmsis_nn_dims *output_dims);

int32_t arm_convolve_s8_get_buffer_size_mve(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims);

int32_t arm_convolve_s8_get_weights_sum_size(const cmsis_nn_dims *output_dims);

/* Per output channel: bias + lhs_offset * sum of that channel's weights. */
arm_cmsis_nn_status arm_convolve_weight_sum(int32_t *vector_sum_buf,
                                            const int8_t *rhs,
                                            const cmsis_nn_dims *input_dims,
                                            const cmsis_nn_dims *filter_dims,
                                            const cmsis_nn_dims *output_dims,
                                            const int32_t lhs_offset,
                                            const int32_t *bias_data);

/* ---- CONV_2D, int16 activations and int8 weights (A16W8) -------------------------------------- */

/* The int16 entries take no input/output offsets (int16 activations are symmetric) and accumulate
 * in 64 bits. With bias_data->is_int32_bias the bias is int32 and requantization uses the full Q31
 * multiplier; otherwise the bias is int64 (data may be NULL) and the multiplier is rounded to Q15. */
arm_cmsis_nn_status arm_convolve_s16(const cmsis_nn_context *ctx,
                                     const cmsis_nn_conv_params *conv_params,
                                     const cmsis_nn_per_channel_quant_params *quant_params,
                                     const cmsis_nn_dims *input_dims,
                                     const int16_t *input_data,
                                     const cmsis_nn_dims *filter_dims,
                                     const int8_t *filter_data,
                                     const cmsis_nn_dims *bias_dims,
                                     const cmsis_nn_bias_data *bias_data,
                                     const cmsis_nn_dims *output_dims,
                                     int16_t *output_data);

/* Grouped convolution with one input channel per group and output channels == input channels. */
arm_cmsis_nn_status arm_convolve_s16_group_ch_mult_1(const cmsis_nn_context *ctx,
                                                     const cmsis_nn_conv_params *conv_params,
                                                     const cmsis_nn_per_channel_quant_params *quant_params,
                                                     const cmsis_nn_dims *input_dims,
                                                     const int16_t *input_data,
                                                     const cmsis_nn_dims *filter_dims,
                                                     const int8_t *filter_data,
                                                     const cmsis_nn_dims *bias_dims,
                                                     const cmsis_nn_bias_data *bias_data,
                                                     const cmsis_nn_dims *output_dims,
                                                     int16_t *output_data);

/* Picks arm_convolve_s16_group_ch_mult_1 or arm_convolve_s16 as ns-cmsis-nn's plain-C build does. */
arm_cmsis_nn_status arm_convolve_wrapper_s16(const cmsis_nn_context *ctx,
                                             const cmsis_nn_conv_params *conv_params,
                                             const cmsis_nn_per_channel_quant_params *quant_params,
                                             const cmsis_nn_dims *input_dims,
                                             const int16_t *input_data,
                                             const cmsis_nn_dims *filter_dims,
                                             const int8_t *filter_data,
                                             const cmsis_nn_dims *bias_dims,
                                             const cmsis_nn_bias_data *bias_data,
                                             const cmsis_nn_dims *output_dims,
                                             int16_t *output_data);

int32_t arm_convolve_s16_get_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims);

int32_t arm_convolve_wrapper_s16_get_buffer_size(const cmsis_nn_conv_params *conv_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const cmsis_nn_dims *output_dims);

int32_t arm_convolve_wrapper_s16_get_buffer_size_dsp(const cmsis_nn_conv_params *conv_params,
                                                     const cmsis_nn_dims *input_dims,
                                                     const cmsis_nn_dims *filter_dims,
                                                     const cmsis_nn_dims *output_dims);

int32_t arm_convolve_wrapper_s16_get_buffer_size_mve(const cmsis_nn_conv_params *conv_params,
                                                     const cmsis_nn_dims *input_dims,
                                                     const cmsis_nn_dims *filter_dims,
                                                     const cmsis_nn_dims *output_dims);

/* ---- TRANSPOSE_CONV (int8) ------------------------------------------------------------------------ */

/* out[oy, ox] gathers in[iy, ix] * filter[ky, kx] over oy = iy*stride_h + ky - padding.h (and the same
 * along x). Dilation must be 1 (ARG_ERROR otherwise). output_ctx is never read. */
arm_cmsis_nn_status arm_transpose_conv_s8(const cmsis_nn_context *ctx,
                                          const cmsis_nn_context *output_ctx,
                                          const cmsis_nn_transpose_conv_params *transpose_conv_params,
                                          const cmsis_nn_per_channel_quant_params *quant_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const int8_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const int32_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          int8_t *output_data);

/* Same result as arm_transpose_conv_s8; ns-cmsis-nn may run it as a convolution of the upscaled input. */
arm_cmsis_nn_status arm_transpose_conv_wrapper_s8(const cmsis_nn_context *ctx,
                                                  const cmsis_nn_context *weight_sum_ctx,
                                                  const cmsis_nn_context *reverse_conv_ctx,
                                                  const cmsis_nn_transpose_conv_params *transpose_conv_params,
                                                  const cmsis_nn_per_channel_quant_params *quant_params,
                                                  const cmsis_nn_dims *input_dims,
                                                  const int8_t *input_data,
                                                  const cmsis_nn_dims *filter_dims,
                                                  const int8_t *filter_data,
                                                  const cmsis_nn_dims *bias_dims,
                                                  const int32_t *bias_data,
                                                  const cmsis_nn_dims *output_dims,
                                                  int8_t *output_data);

int32_t arm_transpose_conv_s8_get_buffer_size(const cmsis_nn_transpose_conv_params *transposed_conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *out_dims);

int32_t arm_transpose_conv_s8_get_reverse_conv_buffer_size(const cmsis_nn_transpose_conv_params *transposed_conv_params,
                                                           const cmsis_nn_dims *input_dims,
                                                           const cmsis_nn_dims *filter_dims);

int32_t arm_transpose_conv_s8_get_buffer_size_mve(const cmsis_nn_transpose_conv_params *transposed_conv_params,
                                                  const cmsis_nn_dims *input_dims,
                                                  const cmsis_nn_dims *filter_dims,
                                                  const cmsis_nn_dims *out_dims);

/* ---- DEPTHWISE_CONV_2D -------------------------------------------------------------------- */

arm_cmsis_nn_status arm_depthwise_conv_s8(const cmsis_nn_context *ctx,
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

arm_cmsis_nn_status arm_depthwise_conv_s8_opt(const cmsis_nn_context *ctx,
                                              const cmsis_nn_context *weight_sum_ctx,
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

arm_cmsis_nn_status arm_depthwise_conv_3x3_s8(const cmsis_nn_context *ctx,
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

arm_cmsis_nn_status arm_depthwise_conv_wrapper_s8(const cmsis_nn_context *ctx,
                                                  const cmsis_nn_context *weight_sum_ctx,
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

int32_t arm_depthwise_conv_s8_opt_get_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims);

int32_t arm_depthwise_conv_wrapper_s8_get_buffer_size(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                      const cmsis_nn_dims *input_dims,
                                                      const cmsis_nn_dims *filter_dims,
                                                      const cmsis_nn_dims *output_dims);

int32_t arm_depthwise_conv_wrapper_s8_get_buffer_size_mve(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                          const cmsis_nn_dims *input_dims,
                                                          const cmsis_nn_dims *filter_dims,
                                                          const cmsis_nn_dims *output_dims);

int32_t arm_depthwise_conv_wrapper_s8_get_buffer_size_dsp(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                          const cmsis_nn_dims *input_dims,
                                                          const cmsis_nn_dims *filter_dims,
                                                          const cmsis_nn_dims *output_dims);

/* Per output channel: bias + lhs_offset * sum of that channel's kernel taps. */
arm_cmsis_nn_status arm_depthwise_convolve_weight_sum(int32_t *vector_sum_buf,
                                                      int8_t *scratch_buf,
                                                      const int8_t *rhs,
                                                      const cmsis_nn_dw_conv_params *dw_conv_params,
                                                      const cmsis_nn_dims *input_dims,
                                                      const cmsis_nn_dims *filter_dims,
                                                      const cmsis_nn_dims *output_dims,
                                                      const int32_t lhs_offset,
                                                      const int32_t *bias_data);

/* ---- DEPTHWISE_CONV_2D, int16 activations and int8 weights (A16W8) ----------------------------- */

/* No offsets; int64 bias (may be NULL); 64-bit accumulators requantized with the Q15-rounded multiplier. */
arm_cmsis_nn_status arm_depthwise_conv_s16(const cmsis_nn_context *ctx,
                                           const cmsis_nn_dw_conv_params *dw_conv_params,
                                           const cmsis_nn_per_channel_quant_params *quant_params,
                                           const cmsis_nn_dims *input_dims,
                                           const int16_t *input_data,
                                           const cmsis_nn_dims *filter_dims,
                                           const int8_t *filter_data,
                                           const cmsis_nn_dims *bias_dims,
                                           const int64_t *bias_data,
                                           const cmsis_nn_dims *output_dims,
                                           int16_t *output_data);

/* Channel multiplier 1 and a kernel of fewer than 512 taps, else ARG_ERROR. */
arm_cmsis_nn_status arm_depthwise_conv_fast_s16(const cmsis_nn_context *ctx,
                                                const cmsis_nn_dw_conv_params *dw_conv_params,
                                                const cmsis_nn_per_channel_quant_params *quant_params,
                                                const cmsis_nn_dims *input_dims,
                                                const int16_t *input_data,
                                                const cmsis_nn_dims *filter_dims,
                                                const int8_t *filter_data,
                                                const cmsis_nn_dims *bias_dims,
                                                const int64_t *bias_data,
                                                const cmsis_nn_dims *output_dims,
                                                int16_t *output_data);

arm_cmsis_nn_status arm_depthwise_conv_wrapper_s16(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_dw_conv_params *dw_conv_params,
                                                   const cmsis_nn_per_channel_quant_params *quant_params,
                                                   const cmsis_nn_dims *input_dims,
                                                   const int16_t *input_data,
                                                   const cmsis_nn_dims *filter_dims,
                                                   const int8_t *filter_data,
                                                   const cmsis_nn_dims *bias_dims,
                                                   const int64_t *bias_data,
                                                   const cmsis_nn_dims *output_dims,
                                                   int16_t *output_data);

int32_t arm_depthwise_conv_fast_s16_get_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims);

int32_t arm_depthwise_conv_wrapper_s16_get_buffer_size(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                       const cmsis_nn_dims *input_dims,
                                                       const cmsis_nn_dims *filter_dims,
                                                       const cmsis_nn_dims *output_dims);

int32_t arm_depthwise_conv_wrapper_s16_get_buffer_size_dsp(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                           const cmsis_nn_dims *input_dims,
                                                           const cmsis_nn_dims *filter_dims,
                                                           const cmsis_nn_dims *output_dims);

int32_t arm_depthwise_conv_wrapper_s16_get_buffer_size_mve(const cmsis_nn_dw_conv_params *dw_conv_params,
                                                           const cmsis_nn_dims *input_dims,
                                                           const cmsis_nn_dims *filter_dims,
                                                           const cmsis_nn_dims *output_dims);

/* ---- FULLY_CONNECTED ---------------------------------------------------------------------- */

arm_cmsis_nn_status arm_fully_connected_s8(const cmsis_nn_context *ctx,
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

arm_cmsis_nn_status arm_fully_connected_per_channel_s8(const cmsis_nn_context *ctx,
                                                       const cmsis_nn_fc_params *fc_params,
                                                       const cmsis_nn_per_channel_quant_params *quant_params,
                                                       const cmsis_nn_dims *input_dims,
                                                       const int8_t *input_data,
                                                       const cmsis_nn_dims *filter_dims,
                                                       const int8_t *filter_data,
                                                       const cmsis_nn_dims *bias_dims,
                                                       const int32_t *bias_data,
                                                       const cmsis_nn_dims *output_dims,
                                                       int8_t *output_data);

arm_cmsis_nn_status arm_fully_connected_wrapper_s8(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_fc_params *fc_params,
                                                   const cmsis_nn_quant_params *quant_params,
                                                   const cmsis_nn_dims *input_dims,
                                                   const int8_t *input_data,
                                                   const cmsis_nn_dims *filter_dims,
                                                   const int8_t *filter_data,
                                                   const cmsis_nn_dims *bias_dims,
                                                   const int32_t *bias_data,
                                                   const cmsis_nn_dims *output_dims,
                                                   int8_t *output_data);

/* Per row: bias + lhs_offset * (sum of the row + vector_cols * rhs_offset). */
arm_cmsis_nn_status arm_vector_sum_s8(int32_t *vector_sum_buf,
                                      const int32_t vector_cols,
                                      const int32_t vector_rows,
                                      const int8_t *vector_data,
                                      const int32_t lhs_offset,
                                      const int32_t rhs_offset,
                                      const int32_t *bias_data);

int32_t arm_fully_connected_s8_get_buffer_size(const cmsis_nn_dims *filter_dims);

int32_t arm_fully_connected_s8_get_buffer_size_mve(const cmsis_nn_dims *filter_dims);

int32_t arm_fully_connected_s8_get_buffer_size_dsp(const cmsis_nn_dims *filter_dims);

/* ---- FULLY_CONNECTED, int16 activations and int8 weights (A16W8) ------------------------------- */

/* No offsets (fc_params offsets are ignored); int64 bias (may be NULL); Q15-rounded multipliers. */
arm_cmsis_nn_status arm_fully_connected_s16(const cmsis_nn_context *ctx,
                                            const cmsis_nn_fc_params *fc_params,
                                            const cmsis_nn_per_tensor_quant_params *quant_params,
                                            const cmsis_nn_dims *input_dims,
                                            const int16_t *input_data,
                                            const cmsis_nn_dims *filter_dims,
                                            const int8_t *filter_data,
                                            const cmsis_nn_dims *bias_dims,
                                            const int64_t *bias_data,
                                            const cmsis_nn_dims *output_dims,
                                            int16_t *output_data);

arm_cmsis_nn_status arm_fully_connected_per_channel_s16(const cmsis_nn_context *ctx,
                                                        const cmsis_nn_fc_params *fc_params,
                                                        const cmsis_nn_per_channel_quant_params *quant_params,
                                                        const cmsis_nn_dims *input_dims,
                                                        const int16_t *input_data,
                                                        const cmsis_nn_dims *filter_dims,
                                                        const int8_t *filter_data,
                                                        const cmsis_nn_dims *bias_dims,
                                                        const int64_t *bias_data,
                                                        const cmsis_nn_dims *output_dims,
                                                        int16_t *output_data);

arm_cmsis_nn_status arm_fully_connected_wrapper_s16(const cmsis_nn_context *ctx,
                                                    const cmsis_nn_fc_params *fc_params,
                                                    const cmsis_nn_quant_params *quant_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const int16_t *input_data,
                                                    const cmsis_nn_dims *filter_dims,
                                                    const int8_t *filter_data,
                                                    const cmsis_nn_dims *bias_dims,
                                                    const int64_t *bias_data,
                                                    const cmsis_nn_dims *output_dims,
                                                    int16_t *output_data);

int32_t arm_fully_connected_s16_get_buffer_size(const cmsis_nn_dims *filter_dims);

int32_t arm_fully_connected_s16_get_buffer_size_dsp(const cmsis_nn_dims *filter_dims);

int32_t arm_fully_connected_s16_get_buffer_size_mve(const cmsis_nn_dims *filter_dims);

int32_t arm_fully_connected_per_channel_s16_get_buffer_size(const cmsis_nn_dims *filter_dims);

int32_t arm_fully_connected_per_channel_s16_get_buffer_size_dsp(const cmsis_nn_dims *filter_dims);

int32_t arm_fully_connected_per_channel_s16_get_buffer_size_mve(const cmsis_nn_dims *filter_dims);

/* ---- AVERAGE_POOL_2D / MAX_POOL_2D ---------------------------------------------------------- */

arm_cmsis_nn_status arm_avgpool_s8(const cmsis_nn_context *ctx,
                                   const cmsis_nn_pool_params *pool_params,
                                   const cmsis_nn_dims *input_dims,
                                   const int8_t *input_data,
                                   const cmsis_nn_dims *filter_dims,
                                   const cmsis_nn_dims *output_dims,
                                   int8_t *output_data);

int32_t arm_avgpool_s8_get_buffer_size(const int dim_dst_width, const int ch_src);

int32_t arm_avgpool_s8_get_buffer_size_mve(const int dim_dst_width, const int ch_src);

int32_t arm_avgpool_s8_get_buffer_size_dsp(const int dim_dst_width, const int ch_src);

arm_cmsis_nn_status arm_max_pool_s8(const cmsis_nn_context *ctx,
                                    const cmsis_nn_pool_params *pool_params,
                                    const cmsis_nn_dims *input_dims,
                                    const int8_t *input_data,
                                    const cmsis_nn_dims *filter_dims,
                                    const cmsis_nn_dims *output_dims,
                                    int8_t *output_data);

/* ---- AVERAGE_POOL_2D / MAX_POOL_2D, int16 -------------------------------------------------------- */

arm_cmsis_nn_status arm_avgpool_s16(const cmsis_nn_context *ctx,
                                    const cmsis_nn_pool_params *pool_params,
                                    const cmsis_nn_dims *input_dims,
                                    const int16_t *input_data,
                                    const cmsis_nn_dims *filter_dims,
                                    const cmsis_nn_dims *output_dims,
                                    int16_t *output_data);

int32_t arm_avgpool_s16_get_buffer_size(const int dim_dst_width, const int ch_src);

int32_t arm_avgpool_s16_get_buffer_size_dsp(const int dim_dst_width, const int ch_src);

int32_t arm_avgpool_s16_get_buffer_size_mve(const int dim_dst_width, const int ch_src);

/* The activation range is taken as int16 values, as in ns-cmsis-nn. */
arm_cmsis_nn_status arm_max_pool_s16(const cmsis_nn_context *ctx,
                                     const cmsis_nn_pool_params *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const int16_t *input_data,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     int16_t *output_data);

/* ---- SOFTMAX -------------------------------------------------------------------------------- */

void arm_softmax_s8(const int8_t *input,
                    const int32_t num_rows,
                    const int32_t row_size,
                    const int32_t mult,
                    const int32_t shift,
                    const int32_t diff_min,
                    int8_t *output);

/* ---- ADD / SUB / MUL ------------------------------------------------------------------------ */

arm_cmsis_nn_status arm_elementwise_add_s8(const int8_t *input_1_vect,
                                           const int8_t *input_2_vect,
                                           const int32_t input_1_offset,
                                           const int32_t input_1_mult,
                                           const int32_t input_1_shift,
                                           const int32_t input_2_offset,
                                           const int32_t input_2_mult,
                                           const int32_t input_2_shift,
                                           const int32_t left_shift,
                                           int8_t *output,
                                           const int32_t out_offset,
                                           const int32_t out_mult,
                                           const int32_t out_shift,
                                           const int32_t out_activation_min,
                                           const int32_t out_activation_max,
                                           const int32_t block_size);

arm_cmsis_nn_status arm_elementwise_sub_s8(const int8_t *input_1_vect,
                                           const int8_t *input_2_vect,
                                           const int32_t input_1_offset,
                                           const int32_t input_1_mult,
                                           const int32_t input_1_shift,
                                           const int32_t input_2_offset,
                                           const int32_t input_2_mult,
                                           const int32_t input_2_shift,
                                           const int32_t left_shift,
                                           int8_t *output,
                                           const int32_t out_offset,
                                           const int32_t out_mult,
                                           const int32_t out_shift,
                                           const int32_t out_activation_min,
                                           const int32_t out_activation_max,
                                           const int32_t block_size);

arm_cmsis_nn_status arm_elementwise_mul_s8(const int8_t *input_1_vect,
                                           const int8_t *input_2_vect,
                                           const int32_t input_1_offset,
                                           const int32_t input_2_offset,
                                           int8_t *output,
                                           const int32_t out_offset,
                                           const int32_t out_mult,
                                           const int32_t out_shift,
                                           const int32_t out_activation_min,
                                           const int32_t out_activation_max,
                                           const int32_t block_size);

/* Broadcasting entries: a dimension of size 1 in one input repeats along the other input's size. */
arm_cmsis_nn_status arm_add_s8(const int8_t *input1_data,
                               const cmsis_nn_dims *input1_dims,
                               const int8_t *input2_data,
                               const cmsis_nn_dims *input2_dims,
                               const int32_t input1_offset,
                               const int32_t input1_mult,
                               const int32_t input1_shift,
                               const int32_t input2_offset,
                               const int32_t input2_mult,
                               const int32_t input2_shift,
                               const int32_t left_shift,
                               int8_t *output_data,
                               const cmsis_nn_dims *output_dims,
                               const int32_t out_offset,
                               const int32_t out_mult,
                               const int32_t out_shift,
                               const int32_t out_activation_min,
                               const int32_t out_activation_max);

arm_cmsis_nn_status arm_sub_s8(const int8_t *input1_data,
                               const cmsis_nn_dims *input1_dims,
                               const int8_t *input2_data,
                               const cmsis_nn_dims *input2_dims,
                               const int32_t input1_offset,
                               const int32_t input1_mult,
                               const int32_t input1_shift,
                               const int32_t input2_offset,
                               const int32_t input2_mult,
                               const int32_t input2_shift,
                               const int32_t left_shift,
                               int8_t *output_data,
                               const cmsis_nn_dims *output_dims,
                               const int32_t out_offset,
                               const int32_t out_mult,
                               const int32_t out_shift,
                               const int32_t out_activation_min,
                               const int32_t out_activation_max);

arm_cmsis_nn_status arm_mul_s8(const int8_t *input1_data,
                               const cmsis_nn_dims *input1_dims,
                               const int8_t *input2_data,
                               const cmsis_nn_dims *input2_dims,
                               const int32_t input1_offset,
                               const int32_t input2_offset,
                               int8_t *output_data,
                               const cmsis_nn_dims *output_dims,
                               const int32_t out_offset,
                               const int32_t out_mult,
                               const int32_t out_shift,
                               const int32_t out_activation_min,
                               const int32_t out_activation_max);

/* ---- QUANTIZE (int8 -> int8) ------------------------------------------------------------------ */

arm_cmsis_nn_status arm_requantize_s8_s8(const int8_t *input,
                                         int8_t *output,
                                         int32_t size,
                                         int32_t effective_scale_multiplier,
                                         int32_t effective_scale_shift,
                                         int32_t input_zeropoint,
                                         int32_t output_zeropoint);

/* ---- CONCATENATION (x is the innermost axis, w the outermost) --------------------------------- */

void arm_concatenation_s8_x(const int8_t *input,
                            const uint16_t input_x,
                            const uint16_t input_y,
                            const uint16_t input_z,
                            const uint16_t input_w,
                            int8_t *output,
                            const uint16_t output_x,
                            const uint32_t offset_x);

void arm_concatenation_s8_y(const int8_t *input,
                            const uint16_t input_x,
                            const uint16_t input_y,
                            const uint16_t input_z,
                            const uint16_t input_w,
                            int8_t *output,
                            const uint16_t output_y,
                            const uint32_t offset_y);

void arm_concatenation_s8_z(const int8_t *input,
                            const uint16_t input_x,
                            const uint16_t input_y,
                            const uint16_t input_z,
                            const uint16_t input_w,
                            int8_t *output,
                            const uint16_t output_z,
                            const uint32_t offset_z);

void arm_concatenation_s8_w(const int8_t *input,
                            const uint16_t input_x,
                            const uint16_t input_y,
                            const uint16_t input_z,
                            const uint16_t input_w,
                            int8_t *output,
                            const uint32_t offset_w);

/* ---- PAD / TRANSPOSE / STRIDED_SLICE / MEAN / RESHAPE ----------------------------------------- */

arm_cmsis_nn_status arm_pad_s8(const int8_t *input,
                               int8_t *output,
                               const int8_t pad_value,
                               const cmsis_nn_dims *input_size,
                               const cmsis_nn_dims *pre_pad,
                               const cmsis_nn_dims *post_pad);

arm_cmsis_nn_status arm_transpose_s8(const int8_t *input_data,
                                     int8_t *const output_data,
                                     const cmsis_nn_dims *const input_dims,
                                     const cmsis_nn_dims *const output_dims,
                                     const cmsis_nn_transpose_params *const transpose_params);

arm_cmsis_nn_status arm_strided_slice_s8(const int8_t *input_data,
                                         int8_t *output_data,
                                         const cmsis_nn_dims *const input_dims,
                                         const cmsis_nn_dims *const begin_dims,
                                         const cmsis_nn_dims *const stride_dims,
                                         const cmsis_nn_dims *const output_dims);

/* axis_dims: a non-zero field marks that axis as reduced. The 1/count factor is part of out_mult/out_shift. */
arm_cmsis_nn_status arm_mean_s8(const int8_t *input_data,
                                const cmsis_nn_dims *input_dims,
                                const int32_t input_offset,
                                const cmsis_nn_dims *axis_dims,
                                int8_t *output_data,
                                const cmsis_nn_dims *output_dims,
                                const int32_t out_offset,
                                const int32_t out_mult,
                                const int32_t out_shift);

void arm_reshape_s8(const int8_t *input, int8_t *output, const uint32_t total_size);

/* ---- Activations ------------------------------------------------------------------------------ */

arm_cmsis_nn_status arm_relu_s8(const int8_t *input,
                                const int32_t input_offset,
                                const int32_t output_offset,
                                const int32_t output_multiplier,
                                const int32_t output_shift,
                                int8_t *output,
                                const int32_t output_size);

arm_cmsis_nn_status
arm_clamp_s8(const int8_t *input, const int8_t act_min, const int8_t act_max, int8_t *output, const int32_t output_size);

void arm_relu6_q7(int8_t *data, uint16_t size);

arm_cmsis_nn_status arm_leaky_relu_s8(const int8_t *input,
                                      const int32_t input_offset,
                                      const int32_t output_offset,
                                      const int32_t output_multiplier_alpha,
                                      const int32_t output_shift_alpha,
                                      const int32_t output_multiplier_identity,
                                      const int32_t output_shift_identity,
                                      int8_t *output,
                                      const int32_t output_size);

arm_cmsis_nn_status arm_hard_swish_precise_s8(const int8_t *input,
                                              const int32_t input_offset,
                                              const int32_t output_offset,
                                              const int32_t output_multiplier,
                                              const int32_t output_shift,
                                              const int32_t relu_q3,
                                              const int32_t relu_q6,
                                              const int32_t prescale,
                                              int8_t *output,
                                              const int32_t output_size);

arm_cmsis_nn_status arm_hard_swish_compat_s8(const int8_t *input,
                                             const int32_t input_offset,
                                             const int32_t output_offset,
                                             const int32_t output_multiplier_fp,
                                             const int32_t output_multiplier_exp,
                                             const int32_t relu_multiplier_fp,
                                             const int32_t relu_multiplier_exp,
                                             int8_t *output,
                                             const int32_t output_size);

/* ==== int16 (16x8) element-wise, activation, softmax, data movement and conversion kernels ==== */
/* int16 tensors are symmetric (zero point 0): the offset arguments of the ADD/SUB/MUL entries are
 * ignored, as in ns-cmsis-nn. See kernels/portable/README.md for the argument conventions. */

/* ---- ADD / SUB / MUL (int16) ---------------------------------------------------------------- */

arm_cmsis_nn_status arm_elementwise_add_s16(const int16_t *input_1_vect,
                                            const int16_t *input_2_vect,
                                            const int32_t input_1_offset,
                                            const int32_t input_1_mult,
                                            const int32_t input_1_shift,
                                            const int32_t input_2_offset,
                                            const int32_t input_2_mult,
                                            const int32_t input_2_shift,
                                            const int32_t left_shift,
                                            int16_t *output,
                                            const int32_t out_offset,
                                            const int32_t out_mult,
                                            const int32_t out_shift,
                                            const int32_t out_activation_min,
                                            const int32_t out_activation_max,
                                            const int32_t block_size);

arm_cmsis_nn_status arm_elementwise_sub_s16(const int16_t *input_1_vect,
                                            const int16_t *input_2_vect,
                                            const int32_t input_1_offset,
                                            const int32_t input_1_mult,
                                            const int32_t input_1_shift,
                                            const int32_t input_2_offset,
                                            const int32_t input_2_mult,
                                            const int32_t input_2_shift,
                                            const int32_t left_shift,
                                            int16_t *output,
                                            const int32_t out_offset,
                                            const int32_t out_mult,
                                            const int32_t out_shift,
                                            const int32_t out_activation_min,
                                            const int32_t out_activation_max,
                                            const int32_t block_size);

arm_cmsis_nn_status arm_elementwise_mul_s16(const int16_t *input_1_vect,
                                            const int16_t *input_2_vect,
                                            const int32_t input_1_offset,
                                            const int32_t input_2_offset,
                                            int16_t *output,
                                            const int32_t out_offset,
                                            const int32_t out_mult,
                                            const int32_t out_shift,
                                            const int32_t out_activation_min,
                                            const int32_t out_activation_max,
                                            const int32_t block_size);

arm_cmsis_nn_status arm_add_s16(const int16_t *input1_data,
                                const cmsis_nn_dims *input1_dims,
                                const int16_t *input2_data,
                                const cmsis_nn_dims *input2_dims,
                                const int32_t input1_offset,
                                const int32_t input1_mult,
                                const int32_t input1_shift,
                                const int32_t input2_offset,
                                const int32_t input2_mult,
                                const int32_t input2_shift,
                                const int32_t left_shift,
                                int16_t *output_data,
                                const cmsis_nn_dims *output_dims,
                                const int32_t out_offset,
                                const int32_t out_mult,
                                const int32_t out_shift,
                                const int32_t out_activation_min,
                                const int32_t out_activation_max);

arm_cmsis_nn_status arm_sub_s16(const int16_t *input1_data,
                                const cmsis_nn_dims *input1_dims,
                                const int16_t *input2_data,
                                const cmsis_nn_dims *input2_dims,
                                const int32_t input1_offset,
                                const int32_t input1_mult,
                                const int32_t input1_shift,
                                const int32_t input2_offset,
                                const int32_t input2_mult,
                                const int32_t input2_shift,
                                const int32_t left_shift,
                                int16_t *output_data,
                                const cmsis_nn_dims *output_dims,
                                const int32_t out_offset,
                                const int32_t out_mult,
                                const int32_t out_shift,
                                const int32_t out_activation_min,
                                const int32_t out_activation_max);

arm_cmsis_nn_status arm_mul_s16(const int16_t *input1_data,
                                const cmsis_nn_dims *input1_dims,
                                const int16_t *input2_data,
                                const cmsis_nn_dims *input2_dims,
                                const int32_t input1_offset,
                                const int32_t input2_offset,
                                int16_t *output_data,
                                const cmsis_nn_dims *output_dims,
                                const int32_t out_offset,
                                const int32_t out_mult,
                                const int32_t out_shift,
                                const int32_t out_activation_min,
                                const int32_t out_activation_max);

/* ---- SOFTMAX (int16 output) ------------------------------------------------------------------ */

/* int8 logits, int16 probabilities (scale 1/65536, zero point -32768); mult/shift/diff_min as arm_softmax_s8. */
void arm_softmax_s8_s16(const int8_t *input,
                        const int32_t num_rows,
                        const int32_t row_size,
                        const int32_t mult,
                        const int32_t shift,
                        const int32_t diff_min,
                        int16_t *output);

/* int16 logits and probabilities (scale 1/32768, zero point 0); both LUTs have 513 entries. */
arm_cmsis_nn_status arm_softmax_s16(const int16_t *input,
                                    const int32_t num_rows,
                                    const int32_t row_size,
                                    const int32_t mult,
                                    const int32_t shift,
                                    const cmsis_nn_softmax_lut_s16 *softmax_params,
                                    int16_t *output);

/* ---- LOGISTIC / TANH and other activations (int16) -------------------------------------------- */

/* TFLite's int16 LOGISTIC / TANH: output scale 1/32768; a zero input_multiplier means the
 * power-of-two scale 2^(input_left_shift - 12). */
arm_cmsis_nn_status arm_logistic_s16(const int16_t *input,
                                     int16_t *output,
                                     const int32_t input_size,
                                     int32_t input_multiplier,
                                     int32_t input_left_shift);

arm_cmsis_nn_status arm_tanh_s16(const int16_t *input,
                                 int16_t *output,
                                 const int32_t input_size,
                                 int32_t input_multiplier,
                                 int32_t input_left_shift);

/* The same for a power-of-two input scale 2^(left_shift - 12) only. */
arm_cmsis_nn_status arm_nn_activation_s16(const int16_t *input,
                                          int16_t *output,
                                          const int32_t size,
                                          const int32_t left_shift,
                                          const arm_nn_activation_type type);

arm_cmsis_nn_status arm_relu_s16(const int16_t *input,
                                 const int32_t input_offset,
                                 const int32_t output_offset,
                                 const int32_t output_multiplier,
                                 const int32_t output_shift,
                                 int16_t *output,
                                 const int32_t output_size);

arm_cmsis_nn_status arm_relu_generic_s16(const int16_t *input,
                                         const int32_t input_offset,
                                         const int32_t output_offset,
                                         const int32_t output_multiplier,
                                         const int32_t output_shift,
                                         const int32_t act_min,
                                         const int32_t act_max,
                                         int16_t *output,
                                         const int32_t output_size);

arm_cmsis_nn_status arm_clamp_s16(const int16_t *input,
                                  const int16_t act_min,
                                  const int16_t act_max,
                                  int16_t *output,
                                  const int32_t output_size);

arm_cmsis_nn_status arm_leaky_relu_s16(const int16_t *input,
                                       const int32_t input_offset,
                                       const int32_t output_offset,
                                       const int32_t output_multiplier_alpha,
                                       const int32_t output_shift_alpha,
                                       const int32_t output_multiplier_identity,
                                       const int32_t output_shift_identity,
                                       int16_t *output,
                                       const int32_t output_size);

arm_cmsis_nn_status arm_hard_swish_precise_s16(const int16_t *input,
                                               const int32_t input_offset,
                                               const int32_t output_offset,
                                               const int32_t output_multiplier,
                                               const int32_t output_shift,
                                               const int32_t relu_q3,
                                               const int32_t relu_q6,
                                               const int32_t prescale,
                                               int16_t *output,
                                               const int32_t output_size);

/* ---- PAD / STRIDED_SLICE / CONCATENATION / TRANSPOSE / MEAN (int16) ----------------------------- */

arm_cmsis_nn_status arm_pad_s16(const int16_t *input,
                                int16_t *output,
                                const int16_t pad_value,
                                const cmsis_nn_dims *input_size,
                                const cmsis_nn_dims *pre_pad,
                                const cmsis_nn_dims *post_pad);

arm_cmsis_nn_status arm_strided_slice_s16(const int16_t *input_data,
                                          int16_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims);

/* N inputs along `axis` of an output with output_dims axes of sizes output_shape[];
 * input i has input_concat_dims[i] elements along `axis`. */
arm_cmsis_nn_status arm_concatenation_s16(const int16_t *const *input_data,
                                          const int32_t inputs_count,
                                          const int32_t *input_concat_dims,
                                          const int32_t axis,
                                          int16_t *output_data,
                                          const int32_t output_dims,
                                          const int32_t *output_shape);

arm_cmsis_nn_status arm_transpose_s16(const int16_t *input_data,
                                      int16_t *const output_data,
                                      const cmsis_nn_dims *const input_dims,
                                      const cmsis_nn_dims *const output_dims,
                                      const cmsis_nn_transpose_params *const transpose_params);

arm_cmsis_nn_status arm_mean_s16(const int16_t *input_data,
                                 const cmsis_nn_dims *input_dims,
                                 const int32_t input_offset,
                                 const cmsis_nn_dims *axis_dims,
                                 int16_t *output_data,
                                 const cmsis_nn_dims *output_dims,
                                 const int32_t out_offset,
                                 const int32_t out_mult,
                                 const int32_t out_shift);

/* ---- QUANTIZE / DEQUANTIZE (int16) ------------------------------------------------------------ */

arm_cmsis_nn_status arm_requantize_s16_s16(const int16_t *input,
                                           int16_t *output,
                                           int32_t size,
                                           int32_t effective_scale_multiplier,
                                           int32_t effective_scale_shift,
                                           int32_t input_zeropoint,
                                           int32_t output_zeropoint);

arm_cmsis_nn_status
arm_quantize_f32_s16(const float *input, int16_t *output, int32_t size, int32_t zero_point, float scale);

arm_cmsis_nn_status
arm_dequantize_s16_f32(const int16_t *input, float *output, int32_t size, int32_t zero_point, float scale);

/* ==== end of the int16 element-wise / activation / softmax / data movement / conversion block ==== */

/* ---- SPLIT, SPLIT_V, TILE, BROADCAST_TO, SLICE int32 (issue 12, data movement A1) ------------- */

/* Piece s of input_data along axis (split_dims[s] positions of it) goes to output_data[s]; any layout. */
arm_cmsis_nn_status arm_split_s8(const int8_t *input_data,
                                 const int32_t input_dims,
                                 const int32_t *input_shape,
                                 const int32_t axis,
                                 const int32_t num_splits,
                                 const int32_t *split_dims,
                                 int8_t *const *output_data);

arm_cmsis_nn_status arm_split_s16(const int16_t *input_data,
                                  const int32_t input_dims,
                                  const int32_t *input_shape,
                                  const int32_t axis,
                                  const int32_t num_splits,
                                  const int32_t *split_dims,
                                  int16_t *const *output_data);

arm_cmsis_nn_status arm_tile_s8(const int8_t *input, const cmsis_nn_tile_params *params, int8_t *output);

arm_cmsis_nn_status arm_tile_s16(const int16_t *input, const cmsis_nn_tile_params *params, int16_t *output);

arm_cmsis_nn_status
arm_broadcast_to_s8(const int8_t *input, const cmsis_nn_broadcast_to_params *params, int8_t *output);

arm_cmsis_nn_status
arm_broadcast_to_s16(const int16_t *input, const cmsis_nn_broadcast_to_params *params, int16_t *output);

arm_cmsis_nn_status arm_strided_slice_s32(const int32_t *input_data,
                                          int32_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims);

/* ==== end of the SPLIT / TILE / BROADCAST_TO / SLICE int32 block ==== */
/* ---- BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH, RESIZE_NEAREST_NEIGHBOR ---- */

/* NHWC data; a 3-D (N, H, C) tensor is passed as W = 1 with block_shape->w = 1. crop and pad pack
 * {top, left, bottom, right} into {n, h, w, c}. Batch and block order follow TFLite. */
arm_cmsis_nn_status arm_batch_to_space_nd_s8(const int8_t *input_data,
                                             const cmsis_nn_dims *input_dims,
                                             const cmsis_nn_tile *block_shape,
                                             const cmsis_nn_dims *crop,
                                             int8_t *output_data,
                                             const cmsis_nn_dims *output_dims);

arm_cmsis_nn_status arm_batch_to_space_nd_s16(const int16_t *input_data,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_tile *block_shape,
                                              const cmsis_nn_dims *crop,
                                              int16_t *output_data,
                                              const cmsis_nn_dims *output_dims);

/* Padding takes the value output_offset (the output zero point); the s16 entry takes 0 only. */
arm_cmsis_nn_status arm_space_to_batch_nd_s8(const int8_t *input_data,
                                             const cmsis_nn_dims *input_dims,
                                             const cmsis_nn_tile *block_shape,
                                             const cmsis_nn_dims *pad,
                                             int8_t *output_data,
                                             const cmsis_nn_dims *output_dims,
                                             const int32_t output_offset);

arm_cmsis_nn_status arm_space_to_batch_nd_s16(const int16_t *input_data,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_tile *block_shape,
                                              const cmsis_nn_dims *pad,
                                              int16_t *output_data,
                                              const cmsis_nn_dims *output_dims,
                                              const int32_t output_offset);

arm_cmsis_nn_status arm_depth_to_space_s8(const int8_t *input_data,
                                          const cmsis_nn_dims *input_dims,
                                          const int32_t block_size,
                                          int8_t *output_data,
                                          const cmsis_nn_dims *output_dims);

arm_cmsis_nn_status arm_space_to_depth_s8(const int8_t *input_data,
                                          const cmsis_nn_dims *input_dims,
                                          const int32_t block_size,
                                          int8_t *output_data,
                                          const cmsis_nn_dims *output_dims);

/* output_size_data holds the output height and width; ctx must not be NULL, ctx->buf is not read
 * (ns-cmsis-nn needs (height + width) * 4 bytes there). */
arm_cmsis_nn_status arm_resize_nearest_neighbor_s8(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_resize_params *resize_params,
                                                   const cmsis_nn_dims *input_shape,
                                                   const int8_t *input_data,
                                                   const cmsis_nn_dims *output_size_shape,
                                                   const int32_t *output_size_data,
                                                   const cmsis_nn_dims *output_shape,
                                                   int8_t *output_data);

arm_cmsis_nn_status arm_resize_nearest_neighbor_s16(const cmsis_nn_context *ctx,
                                                    const cmsis_nn_resize_params *resize_params,
                                                    const cmsis_nn_dims *input_shape,
                                                    const int16_t *input_data,
                                                    const cmsis_nn_dims *output_size_shape,
                                                    const int32_t *output_size_data,
                                                    const cmsis_nn_dims *output_shape,
                                                    int16_t *output_data);

/* ==== end of the space / batch / depth / nearest-neighbour resize block ==== */
/* ==== SQRT / RSQRT / RELU_N1_TO_1 / RELU_0_TO_1 (unary math group) ==== */

/* int8 table lookup: output[i] = sqrt_lut[(uint8_t)input[i]] over n * h * w * c elements. */
arm_cmsis_nn_status arm_sqrt_s8(const int8_t *input, const cmsis_nn_dims *input_dims, int8_t *output, int8_t *sqrt_lut);

/* int16 1/sqrt from LiteRT's 513-entry table with its interpolation; ARM_CMSIS_NN_ARG_ERROR on a
 * negative input (after input_offset). */
arm_cmsis_nn_status arm_rsqrt_s16_per_op(const int16_t *input,
                                         const int32_t input_offset,
                                         int16_t *output,
                                         const int32_t out_offset,
                                         const int32_t out_activation_min,
                                         const int32_t out_activation_max,
                                         const int32_t block_size,
                                         const int16_t *lut);

arm_cmsis_nn_status arm_relu_generic_s8(const int8_t *input,
                                        const int32_t input_offset,
                                        const int32_t output_offset,
                                        const int32_t output_multiplier,
                                        const int32_t output_shift,
                                        const int32_t act_min,
                                        const int32_t act_max,
                                        int8_t *output,
                                        const int32_t output_size);

/* ==== end of the unary math block ==== */
/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM (int8 activations and weights, int16 cell state) ---------- */

/* The whole sequence: output gets hidden_size values per batch and time step, in input's layout. */
arm_cmsis_nn_status arm_lstm_unidirectional_s8(const int8_t *input,
                                               int8_t *output,
                                               const cmsis_nn_lstm_params *params,
                                               cmsis_nn_lstm_context *buffers);

/* One time step for every batch; batch_offset is the distance between batches in time steps. */
arm_cmsis_nn_status arm_nn_lstm_step_s8(const int8_t *data_in,
                                        const int8_t *hidden_in,
                                        int8_t *hidden_out,
                                        const cmsis_nn_lstm_params *params,
                                        cmsis_nn_lstm_context *buffers,
                                        const int32_t batch_offset);

/* One gate in Q0.15: activation(requantized W x + requantized R h); hidden_in may be NULL. */
arm_cmsis_nn_status arm_nn_lstm_calculate_gate_s8_s16(const int8_t *data_in,
                                                      const int8_t *hidden_in,
                                                      const cmsis_nn_lstm_gate *gate_data,
                                                      const cmsis_nn_lstm_params *params,
                                                      int16_t *output,
                                                      const int32_t batch_offset);

/* dst[b][r] = saturate_s16(dst[b][r] + requantize(effective_bias[r] + rhs[r] . lhs[b])). */
arm_cmsis_nn_status arm_nn_vec_mat_mul_result_acc_s8_s16(const int8_t *lhs,
                                                         const int8_t *rhs,
                                                         const int32_t *effective_bias,
                                                         int16_t *dst,
                                                         const int32_t dst_multiplier,
                                                         const int32_t dst_shift,
                                                         const int32_t rhs_cols,
                                                         const int32_t rhs_rows,
                                                         const int32_t batches,
                                                         const int32_t batch_offset);

/* output[i] = clamp(output[i] + requantize(in1[i] * in2[i])); a max <= 0 means no clamp. Offsets unused. */
arm_cmsis_nn_status arm_elementwise_mul_acc_s16(const int16_t *input_1_vect,
                                                const int16_t *input_2_vect,
                                                const int32_t input_1_offset,
                                                const int32_t input_2_offset,
                                                int16_t *output,
                                                const int32_t out_offset,
                                                const int32_t out_mult,
                                                const int32_t out_shift,
                                                const int32_t out_activation_min,
                                                const int32_t out_activation_max,
                                                const int32_t block_size);

/* int8 output[i] = saturate(requantize(in1[i] * in2[i]) + out_offset), batch_size blocks written
 * batch_offset blocks apart. */
arm_cmsis_nn_status arm_elementwise_mul_s16_s8(const int16_t *input_1_vect,
                                               const int16_t *input_2_vect,
                                               int8_t *output,
                                               const int32_t out_offset,
                                               const int32_t out_mult,
                                               const int32_t out_shift,
                                               const int32_t block_size,
                                               const int32_t batch_size,
                                               const int32_t batch_offset);

/* ==== end of the UNIDIRECTIONAL_SEQUENCE_LSTM block ==== */
/* ==== SVDF ======================================================================================
 * One step of a rank-`rank` SVDF layer per call, keeping its memory in state_data
 * ([batches][feature_batches][time_batches], oldest first): every state row moves one step left,
 * the newest column gets the feature projection of the input (requantized by input_quant_params,
 * clamped to input_activation), each feature's time weights are dotted with its row, the rank
 * features of a unit summed onto its bias, requantized by output_quant_params plus output_offset
 * and clamped to output_activation. Dimensions: input_dims {batches, input size}, weights_feature_dims
 * n = feature_batches (units * rank), weights_time_dims h = time_batches (memory size).
 * input_ctx->buf (batches * feature_batches int32) and output_ctx->buf (batches * units int32) are
 * required work buffers in both libraries; a NULL one returns ARM_CMSIS_NN_ARG_ERROR. */

/* int8 state and int8 time weights (TFLM). ctx->buf holds the kernel sums Helium builds need
 * (arm_svdf_s8_get_buffer_size; filled by arm_vector_sum_s8 with lhs offset -input_offset); these
 * kernels do not read it. */
arm_cmsis_nn_status arm_svdf_s8(const cmsis_nn_context *ctx,
                                const cmsis_nn_context *input_ctx,
                                const cmsis_nn_context *output_ctx,
                                const cmsis_nn_svdf_params *svdf_params,
                                const cmsis_nn_per_tensor_quant_params *input_quant_params,
                                const cmsis_nn_per_tensor_quant_params *output_quant_params,
                                const cmsis_nn_dims *input_dims,
                                const int8_t *input_data,
                                const cmsis_nn_dims *state_dims,
                                int8_t *state_data,
                                const cmsis_nn_dims *weights_feature_dims,
                                const int8_t *weights_feature_data,
                                const cmsis_nn_dims *weights_time_dims,
                                const int8_t *weights_time_data,
                                const cmsis_nn_dims *bias_dims,
                                const int32_t *bias_data,
                                const cmsis_nn_dims *output_dims,
                                int8_t *output_data);

/* int16 state and int16 time weights: LiteRT's integer SVDF. */
arm_cmsis_nn_status arm_svdf_state_s16_s8(const cmsis_nn_context *input_ctx,
                                          const cmsis_nn_context *output_ctx,
                                          const cmsis_nn_svdf_params *svdf_params,
                                          const cmsis_nn_per_tensor_quant_params *input_quant_params,
                                          const cmsis_nn_per_tensor_quant_params *output_quant_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *state_dims,
                                          int16_t *state_data,
                                          const cmsis_nn_dims *weights_feature_dims,
                                          const int8_t *weights_feature_data,
                                          const cmsis_nn_dims *weights_time_dims,
                                          const int16_t *weights_time_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const int32_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          int8_t *output_data);

/* Bytes of arm_svdf_s8's ctx->buf: weights_feature_dims->n int32 kernel sums on Helium builds, else 0. */
int32_t arm_svdf_s8_get_buffer_size(const cmsis_nn_dims *weights_feature_dims);
int32_t arm_svdf_s8_get_buffer_size_dsp(const cmsis_nn_dims *weights_feature_dims);
int32_t arm_svdf_s8_get_buffer_size_mve(const cmsis_nn_dims *weights_feature_dims);

/* ==== end of the SVDF block ==== */

#ifdef __cplusplus
}
#endif

#endif /* ARM_NNFUNCTIONS_H */
