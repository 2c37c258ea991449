/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the float32 / float16 subset of the ns-cmsis-nn v7.29.2 API, same declarations. */

/*
 * Included by arm_nnfunctions.h when the build sets ARM_NN_ENABLE_F32 and/or ARM_NN_ENABLE_F16, as
 * ns-cmsis-nn's header is. Every function is plain C99 under kernels/portable/src and gives results
 * bit-identical to ns-cmsis-nn's plain-C build compiled by the same compiler with the same flags
 * (same operations in the same order). As for the integer kernels, no function reads ctx->buf (or
 * output_ctx); the *_get_buffer_size functions report ns-cmsis-nn's plain-C sizes. Activation
 * bounds, pad values and LEAKY_RELU's alpha are real values in the tensors' own type.
 */

#ifndef ARM_NNFUNCTIONS_FLT_H
#define ARM_NNFUNCTIONS_FLT_H

#include "arm_nn_types_flt.h"

#ifdef __cplusplus
extern "C" {
#endif

#if ARM_NN_ENABLE_F32

/* ---- CONV_2D --------------------------------------------------------------------------------- */

/*
 * Float CONV_2D, NHWC. filter_dims = {output channels, kernel h, kernel w, input channels}, filter data
 * [out][kh][kw][in] (TFLite's layout); bias (output channels) may be NULL; padding is the leading
 * padding. The wrapper picks the 1x1 / 1xN / general route exactly as ns-cmsis-nn does.
 */
arm_cmsis_nn_status arm_convolve_wrapper_f32(const cmsis_nn_context *ctx,
                                             const cmsis_nn_conv_params_f32 *conv_params,
                                             const cmsis_nn_dims *input_dims,
                                             const float32_t *input_data,
                                             const cmsis_nn_dims *filter_dims,
                                             const float32_t *filter_data,
                                             const cmsis_nn_dims *bias_dims,
                                             const float32_t *bias_data,
                                             const cmsis_nn_dims *output_dims,
                                             float32_t *output_data);

/* The wrapper's route with an explicit layout (ARM_NN_LAYOUT_NHWC only). */
arm_cmsis_nn_status arm_convolve_f32(const cmsis_nn_context *ctx,
                                     const cmsis_nn_conv_params_f32 *conv_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float32_t *input_data,
                                     const cmsis_nn_dims *filter_dims,
                                     const float32_t *filter_data,
                                     const cmsis_nn_dims *bias_dims,
                                     const float32_t *bias_data,
                                     const cmsis_nn_dims *output_dims,
                                     float32_t *output_data,
                                     arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_convolve_nhwc_f32(const cmsis_nn_context *ctx,
                                          const cmsis_nn_conv_params_f32 *conv_params,
                                          const cmsis_nn_dims *input_dims,
                                          const float32_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const float32_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const float32_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          float32_t *output_data);

/* 1x1 kernel, no padding, any stride. */
arm_cmsis_nn_status arm_convolve_1x1_f32(const cmsis_nn_context *ctx,
                                         const cmsis_nn_conv_params_f32 *conv_params,
                                         const cmsis_nn_dims *input_dims,
                                         const float32_t *input_data,
                                         const cmsis_nn_dims *filter_dims,
                                         const float32_t *filter_data,
                                         const cmsis_nn_dims *bias_dims,
                                         const float32_t *bias_data,
                                         const cmsis_nn_dims *output_dims,
                                         float32_t *output_data,
                                         arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_convolve_1x1_nhwc_f32(const cmsis_nn_context *ctx,
                                              const cmsis_nn_conv_params_f32 *conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const float32_t *input_data,
                                              const cmsis_nn_dims *filter_dims,
                                              const float32_t *filter_data,
                                              const cmsis_nn_dims *bias_dims,
                                              const float32_t *bias_data,
                                              const cmsis_nn_dims *output_dims,
                                              float32_t *output_data);

/* One-row input and kernel (h = 1), stride.h 1, no vertical padding, dilation 1. */
arm_cmsis_nn_status arm_convolve_1_x_n_f32(const cmsis_nn_context *ctx,
                                           const cmsis_nn_conv_params_f32 *conv_params,
                                           const cmsis_nn_dims *input_dims,
                                           const float32_t *input_data,
                                           const cmsis_nn_dims *filter_dims,
                                           const float32_t *filter_data,
                                           const cmsis_nn_dims *bias_dims,
                                           const float32_t *bias_data,
                                           const cmsis_nn_dims *output_dims,
                                           float32_t *output_data,
                                           arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_convolve_1_x_n_nhwc_f32(const cmsis_nn_context *ctx,
                                                const cmsis_nn_conv_params_f32 *conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const float32_t *input_data,
                                                const cmsis_nn_dims *filter_dims,
                                                const float32_t *filter_data,
                                                const cmsis_nn_dims *bias_dims,
                                                const float32_t *bias_data,
                                                const cmsis_nn_dims *output_dims,
                                                float32_t *output_data);

/* Scratch bytes ns-cmsis-nn wants for each route (the portable kernels need none). */
int32_t arm_convolve_wrapper_f32_get_buffer_size(const cmsis_nn_conv_params_f32 *conv_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const cmsis_nn_dims *output_dims);

int32_t arm_convolve_f32_get_buffer_size(const cmsis_nn_conv_params_f32 *conv_params,
                                         const cmsis_nn_dims *input_dims,
                                         const cmsis_nn_dims *filter_dims,
                                         const cmsis_nn_dims *output_dims,
                                         arm_nn_tensor_layout layout);

int32_t arm_convolve_1x1_f32_get_buffer_size(const cmsis_nn_conv_params_f32 *conv_params,
                                             const cmsis_nn_dims *input_dims,
                                             const cmsis_nn_dims *filter_dims,
                                             const cmsis_nn_dims *output_dims,
                                             arm_nn_tensor_layout layout);

int32_t arm_convolve_1_x_n_f32_get_buffer_size(const cmsis_nn_conv_params_f32 *conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *output_dims,
                                               arm_nn_tensor_layout layout);

/* ---- DEPTHWISE_CONV_2D ------------------------------------------------------------------------ */

/*
 * Float DEPTHWISE_CONV_2D, NHWC. filter_dims = {1, kernel h, kernel w, output channels} (only h and w
 * are read), filter data [kh][kw][out] (TFLite's layout); output channel i * ch_mult + m reads input
 * channel i. bias (output channels) may be NULL.
 */
arm_cmsis_nn_status arm_depthwise_conv_wrapper_f32(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_dw_conv_params_f32 *dw_conv_params,
                                                   const cmsis_nn_dims *input_dims,
                                                   const float32_t *input,
                                                   const cmsis_nn_dims *filter_dims,
                                                   const float32_t *kernel,
                                                   const cmsis_nn_dims *bias_dims,
                                                   const float32_t *bias,
                                                   const cmsis_nn_dims *output_dims,
                                                   float32_t *output);

arm_cmsis_nn_status arm_depthwise_conv_f32(const cmsis_nn_context *ctx,
                                           const cmsis_nn_dw_conv_params_f32 *dw_conv_params,
                                           const cmsis_nn_dims *input_dims,
                                           const float32_t *input,
                                           const cmsis_nn_dims *filter_dims,
                                           const float32_t *kernel,
                                           const cmsis_nn_dims *bias_dims,
                                           const float32_t *bias,
                                           const cmsis_nn_dims *output_dims,
                                           float32_t *output,
                                           arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_depthwise_nhwc_conv_f32(const cmsis_nn_context *ctx,
                                                const cmsis_nn_dw_conv_params_f32 *dw_conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const float32_t *input,
                                                const cmsis_nn_dims *filter_dims,
                                                const float32_t *kernel,
                                                const cmsis_nn_dims *bias_dims,
                                                const float32_t *bias,
                                                const cmsis_nn_dims *output_dims,
                                                float32_t *output);

int32_t arm_depthwise_conv_wrapper_f32_get_buffer_size(const cmsis_nn_dw_conv_params_f32 *dw_conv_params,
                                                       const cmsis_nn_dims *input_dims,
                                                       const cmsis_nn_dims *filter_dims,
                                                       const cmsis_nn_dims *output_dims);

int32_t arm_depthwise_conv_f32_get_buffer_size(const cmsis_nn_dw_conv_params_f32 *dw_conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *output_dims,
                                               arm_nn_tensor_layout layout);

/* ---- FULLY_CONNECTED -------------------------------------------------------------------------- */

/*
 * output[b][o] = bias[o] + sum_k input[b][k] * kernel[o][k]. input_dims->n is the batch count and
 * h * w * c of input_dims the depth, which filter_dims->n must equal; output_dims->c is the output
 * count. kernel is [outputs][depth] (TFLite's layout); bias may be NULL.
 */
arm_cmsis_nn_status arm_fully_connected_f32(const cmsis_nn_context *ctx,
                                            const cmsis_nn_fc_params_f32 *fc_params,
                                            const cmsis_nn_dims *input_dims,
                                            const float32_t *input,
                                            const cmsis_nn_dims *filter_dims,
                                            const float32_t *kernel,
                                            const cmsis_nn_dims *bias_dims,
                                            const float32_t *bias,
                                            const cmsis_nn_dims *output_dims,
                                            float32_t *output,
                                            arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_fully_connected_nhwc_f32(const cmsis_nn_context *ctx,
                                                 const cmsis_nn_fc_params_f32 *fc_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const float32_t *input,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const float32_t *kernel,
                                                 const cmsis_nn_dims *bias_dims,
                                                 const float32_t *bias,
                                                 const cmsis_nn_dims *output_dims,
                                                 float32_t *output);

int32_t arm_fully_connected_f32_get_buffer_size(const cmsis_nn_fc_params_f32 *fc_params,
                                                const cmsis_nn_dims *input_dims,
                                                const cmsis_nn_dims *filter_dims,
                                                const cmsis_nn_dims *output_dims,
                                                arm_nn_tensor_layout layout);

/* ---- TRANSPOSE_CONV --------------------------------------------------------------------------- */

/*
 * Float TRANSPOSE_CONV, NHWC: input pixel (y, x) adds input * filter into output pixel
 * (y * stride - padding + ky * dilation, x * ...). filter_dims = {output channels, kh, kw, input
 * channels}, filter data [out][kh][kw][in] (TFLite's layout); bias may be NULL; dilation must be
 * given (1 for TFLite). The contexts are not read.
 */
arm_cmsis_nn_status arm_transpose_conv_wrapper_f32(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_context *output_ctx,
                                                   const cmsis_nn_transpose_conv_params_f32 *transpose_conv_params,
                                                   const cmsis_nn_dims *input_dims,
                                                   const float32_t *input_data,
                                                   const cmsis_nn_dims *filter_dims,
                                                   const float32_t *filter_data,
                                                   const cmsis_nn_dims *bias_dims,
                                                   const float32_t *bias_data,
                                                   const cmsis_nn_dims *output_dims,
                                                   float32_t *output_data,
                                                   arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_transpose_conv_f32(const cmsis_nn_context *ctx,
                                           const cmsis_nn_context *output_ctx,
                                           const cmsis_nn_transpose_conv_params_f32 *transpose_conv_params,
                                           const cmsis_nn_dims *input_dims,
                                           const float32_t *input_data,
                                           const cmsis_nn_dims *filter_dims,
                                           const float32_t *filter_data,
                                           const cmsis_nn_dims *bias_dims,
                                           const float32_t *bias_data,
                                           const cmsis_nn_dims *output_dims,
                                           float32_t *output_data,
                                           arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_transpose_conv_nhwc_f32(const cmsis_nn_context *ctx,
                                                const cmsis_nn_context *output_ctx,
                                                const cmsis_nn_transpose_conv_params_f32 *transpose_conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const float32_t *input_data,
                                                const cmsis_nn_dims *filter_dims,
                                                const float32_t *filter_data,
                                                const cmsis_nn_dims *bias_dims,
                                                const float32_t *bias_data,
                                                const cmsis_nn_dims *output_dims,
                                                float32_t *output_data);

int32_t arm_transpose_conv_f32_get_buffer_size(const cmsis_nn_transpose_conv_params_f32 *transpose_conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *out_dims);

int32_t
arm_transpose_conv_f32_get_reverse_conv_buffer_size(const cmsis_nn_transpose_conv_params_f32 *transpose_conv_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const cmsis_nn_dims *filter_dims);

/* ---- AVERAGE_POOL_2D / MAX_POOL_2D ------------------------------------------------------------ */

/* filter_dims h and w are the window; padding is the leading padding. The average divides by the
 * number of window elements inside the input, as TFLite does. ctx is not read. */
arm_cmsis_nn_status arm_avg_pool_f32(const cmsis_nn_context *ctx,
                                     const cmsis_nn_pool_params_f32 *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float32_t *src,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     float32_t *dst);

arm_cmsis_nn_status arm_max_pool_f32(const cmsis_nn_context *ctx,
                                     const cmsis_nn_pool_params_f32 *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float32_t *src,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     float32_t *dst);

/* ---- SOFTMAX ---------------------------------------------------------------------------------- */

/* Softmax of each row (beta 1) with ns-cmsis-nn's table-based exp (see README). */
arm_cmsis_nn_status arm_softmax_f32(const float32_t *input, int32_t num_rows, int32_t row_size, float32_t *output);

/* ---- Activations ------------------------------------------------------------------------------ */

/* output[i] = f(input[i]) for the arm_nn_activation_type_flt f; act_param is LEAKY_RELU's alpha. */
arm_cmsis_nn_status arm_nn_activation_f32(const float32_t *input,
                                          float32_t *output,
                                          int32_t size,
                                          arm_nn_activation_type_flt type,
                                          float32_t act_param);

/* ---- ADD / SUB / MUL (same shapes, no broadcasting), MAXIMUM / MINIMUM (broadcasting) ----------- */

arm_cmsis_nn_status arm_elementwise_add_f32(const float32_t *input_1_vect,
                                            const float32_t *input_2_vect,
                                            float32_t *output,
                                            float32_t out_activation_min,
                                            float32_t out_activation_max,
                                            int32_t block_size);

arm_cmsis_nn_status arm_elementwise_sub_f32(const float32_t *input_1_vect,
                                            const float32_t *input_2_vect,
                                            float32_t *output,
                                            float32_t out_activation_min,
                                            float32_t out_activation_max,
                                            int32_t block_size);

arm_cmsis_nn_status arm_elementwise_mul_f32(const float32_t *input_1_vect,
                                            const float32_t *input_2_vect,
                                            float32_t *output,
                                            float32_t out_activation_min,
                                            float32_t out_activation_max,
                                            int32_t block_size);

arm_cmsis_nn_status arm_maximum_f32(const cmsis_nn_context *ctx,
                                    const float32_t *input_1_data,
                                    const cmsis_nn_dims *input_1_dims,
                                    const float32_t *input_2_data,
                                    const cmsis_nn_dims *input_2_dims,
                                    float32_t *output_data,
                                    const cmsis_nn_dims *output_dims);

arm_cmsis_nn_status arm_minimum_f32(const cmsis_nn_context *ctx,
                                    const float32_t *input_1_data,
                                    const cmsis_nn_dims *input_1_dims,
                                    const float32_t *input_2_data,
                                    const cmsis_nn_dims *input_2_dims,
                                    float32_t *output_data,
                                    const cmsis_nn_dims *output_dims);

/* ---- PAD / STRIDED_SLICE / TRANSPOSE / SUM ---------------------------------------------------- */

arm_cmsis_nn_status arm_pad_f32(const float32_t *input,
                                float32_t *output,
                                float32_t pad_value,
                                const cmsis_nn_dims *input_size,
                                const cmsis_nn_dims *pre_pad,
                                const cmsis_nn_dims *post_pad);

arm_cmsis_nn_status arm_strided_slice_f32(const float32_t *input_data,
                                          float32_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims);

/* The first params->num_dims of (n, h, w, c) are the tensor's axes; ctx is not read. */
arm_cmsis_nn_status arm_transpose_f32(const cmsis_nn_context *ctx,
                                      const cmsis_nn_transpose_params_f32 *params,
                                      const cmsis_nn_dims *input_dims,
                                      const float32_t *input,
                                      const cmsis_nn_dims *output_dims,
                                      float32_t *output);

/* Sums over the axes whose axis_dims entry is non-zero; output_dims keeps them as 1. */
arm_cmsis_nn_status arm_reduce_sum_f32(const float32_t *input_data,
                                       const cmsis_nn_dims *input_dims,
                                       const cmsis_nn_dims *axis_dims,
                                       float32_t *output_data,
                                       const cmsis_nn_dims *output_dims);

/* ---- SVDF (float32): see the SVDF block of arm_nnfunctions.h; ctx is not read, input_ctx->buf
 * (batches * feature_batches floats) and output_ctx->buf (batches * units floats) are required. ---- */
arm_cmsis_nn_status arm_svdf_f32(const cmsis_nn_context *ctx,
                                 const cmsis_nn_context *input_ctx,
                                 const cmsis_nn_context *output_ctx,
                                 const cmsis_nn_svdf_params_f32 *svdf_params,
                                 const cmsis_nn_dims *input_dims,
                                 const float32_t *input_data,
                                 const cmsis_nn_dims *state_dims,
                                 float32_t *state_data,
                                 const cmsis_nn_dims *weights_feature_dims,
                                 const float32_t *weights_feature_data,
                                 const cmsis_nn_dims *weights_time_dims,
                                 const float32_t *weights_time_data,
                                 const cmsis_nn_dims *bias_dims,
                                 const float32_t *bias_data,
                                 const cmsis_nn_dims *output_dims,
                                 float32_t *output_data);

#endif /* ARM_NN_ENABLE_F32 */

#if ARM_NN_ENABLE_F16

/* The float16 entry points: the float32 ones with float16_t data (see above for the conventions). */

/* ---- CONV_2D --------------------------------------------------------------------------------- */

arm_cmsis_nn_status arm_convolve_wrapper_f16(const cmsis_nn_context *ctx,
                                             const cmsis_nn_conv_params_f16 *conv_params,
                                             const cmsis_nn_dims *input_dims,
                                             const float16_t *input_data,
                                             const cmsis_nn_dims *filter_dims,
                                             const float16_t *filter_data,
                                             const cmsis_nn_dims *bias_dims,
                                             const float16_t *bias_data,
                                             const cmsis_nn_dims *output_dims,
                                             float16_t *output_data);

arm_cmsis_nn_status arm_convolve_f16(const cmsis_nn_context *ctx,
                                     const cmsis_nn_conv_params_f16 *conv_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float16_t *input_data,
                                     const cmsis_nn_dims *filter_dims,
                                     const float16_t *filter_data,
                                     const cmsis_nn_dims *bias_dims,
                                     const float16_t *bias_data,
                                     const cmsis_nn_dims *output_dims,
                                     float16_t *output_data,
                                     arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_convolve_nhwc_f16(const cmsis_nn_context *ctx,
                                          const cmsis_nn_conv_params_f16 *conv_params,
                                          const cmsis_nn_dims *input_dims,
                                          const float16_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const float16_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const float16_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          float16_t *output_data);

arm_cmsis_nn_status arm_convolve_1x1_f16(const cmsis_nn_context *ctx,
                                         const cmsis_nn_conv_params_f16 *conv_params,
                                         const cmsis_nn_dims *input_dims,
                                         const float16_t *input_data,
                                         const cmsis_nn_dims *filter_dims,
                                         const float16_t *filter_data,
                                         const cmsis_nn_dims *bias_dims,
                                         const float16_t *bias_data,
                                         const cmsis_nn_dims *output_dims,
                                         float16_t *output_data,
                                         arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_convolve_1x1_nhwc_f16(const cmsis_nn_context *ctx,
                                              const cmsis_nn_conv_params_f16 *conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const float16_t *input_data,
                                              const cmsis_nn_dims *filter_dims,
                                              const float16_t *filter_data,
                                              const cmsis_nn_dims *bias_dims,
                                              const float16_t *bias_data,
                                              const cmsis_nn_dims *output_dims,
                                              float16_t *output_data);

arm_cmsis_nn_status arm_convolve_1_x_n_f16(const cmsis_nn_context *ctx,
                                           const cmsis_nn_conv_params_f16 *conv_params,
                                           const cmsis_nn_dims *input_dims,
                                           const float16_t *input_data,
                                           const cmsis_nn_dims *filter_dims,
                                           const float16_t *filter_data,
                                           const cmsis_nn_dims *bias_dims,
                                           const float16_t *bias_data,
                                           const cmsis_nn_dims *output_dims,
                                           float16_t *output_data,
                                           arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_convolve_1_x_n_nhwc_f16(const cmsis_nn_context *ctx,
                                                const cmsis_nn_conv_params_f16 *conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const float16_t *input_data,
                                                const cmsis_nn_dims *filter_dims,
                                                const float16_t *filter_data,
                                                const cmsis_nn_dims *bias_dims,
                                                const float16_t *bias_data,
                                                const cmsis_nn_dims *output_dims,
                                                float16_t *output_data);

int32_t arm_convolve_wrapper_f16_get_buffer_size(const cmsis_nn_conv_params_f16 *conv_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const cmsis_nn_dims *output_dims);

int32_t arm_convolve_f16_get_buffer_size(const cmsis_nn_conv_params_f16 *conv_params,
                                         const cmsis_nn_dims *input_dims,
                                         const cmsis_nn_dims *filter_dims,
                                         const cmsis_nn_dims *output_dims,
                                         arm_nn_tensor_layout layout);

int32_t arm_convolve_1x1_f16_get_buffer_size(const cmsis_nn_conv_params_f16 *conv_params,
                                             const cmsis_nn_dims *input_dims,
                                             const cmsis_nn_dims *filter_dims,
                                             const cmsis_nn_dims *output_dims,
                                             arm_nn_tensor_layout layout);

int32_t arm_convolve_1_x_n_f16_get_buffer_size(const cmsis_nn_conv_params_f16 *conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *output_dims,
                                               arm_nn_tensor_layout layout);

/* ---- DEPTHWISE_CONV_2D ------------------------------------------------------------------------ */

arm_cmsis_nn_status arm_depthwise_conv_wrapper_f16(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_dw_conv_params_f16 *dw_conv_params,
                                                   const cmsis_nn_dims *input_dims,
                                                   const float16_t *input,
                                                   const cmsis_nn_dims *filter_dims,
                                                   const float16_t *kernel,
                                                   const cmsis_nn_dims *bias_dims,
                                                   const float16_t *bias,
                                                   const cmsis_nn_dims *output_dims,
                                                   float16_t *output);

arm_cmsis_nn_status arm_depthwise_conv_f16(const cmsis_nn_context *ctx,
                                           const cmsis_nn_dw_conv_params_f16 *dw_conv_params,
                                           const cmsis_nn_dims *input_dims,
                                           const float16_t *input,
                                           const cmsis_nn_dims *filter_dims,
                                           const float16_t *kernel,
                                           const cmsis_nn_dims *bias_dims,
                                           const float16_t *bias,
                                           const cmsis_nn_dims *output_dims,
                                           float16_t *output,
                                           arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_depthwise_nhwc_conv_f16(const cmsis_nn_context *ctx,
                                                const cmsis_nn_dw_conv_params_f16 *dw_conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const float16_t *input,
                                                const cmsis_nn_dims *filter_dims,
                                                const float16_t *kernel,
                                                const cmsis_nn_dims *bias_dims,
                                                const float16_t *bias,
                                                const cmsis_nn_dims *output_dims,
                                                float16_t *output);

int32_t arm_depthwise_conv_wrapper_f16_get_buffer_size(const cmsis_nn_dw_conv_params_f16 *dw_conv_params,
                                                       const cmsis_nn_dims *input_dims,
                                                       const cmsis_nn_dims *filter_dims,
                                                       const cmsis_nn_dims *output_dims);

int32_t arm_depthwise_conv_f16_get_buffer_size(const cmsis_nn_dw_conv_params_f16 *dw_conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *output_dims,
                                               arm_nn_tensor_layout layout);

/* ---- FULLY_CONNECTED -------------------------------------------------------------------------- */

arm_cmsis_nn_status arm_fully_connected_f16(const cmsis_nn_context *ctx,
                                            const cmsis_nn_fc_params_f16 *fc_params,
                                            const cmsis_nn_dims *input_dims,
                                            const float16_t *input,
                                            const cmsis_nn_dims *filter_dims,
                                            const float16_t *kernel,
                                            const cmsis_nn_dims *bias_dims,
                                            const float16_t *bias,
                                            const cmsis_nn_dims *output_dims,
                                            float16_t *output,
                                            arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_fully_connected_nhwc_f16(const cmsis_nn_context *ctx,
                                                 const cmsis_nn_fc_params_f16 *fc_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const float16_t *input,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const float16_t *kernel,
                                                 const cmsis_nn_dims *bias_dims,
                                                 const float16_t *bias,
                                                 const cmsis_nn_dims *output_dims,
                                                 float16_t *output);

int32_t arm_fully_connected_f16_get_buffer_size(const cmsis_nn_fc_params_f16 *fc_params,
                                                const cmsis_nn_dims *input_dims,
                                                const cmsis_nn_dims *filter_dims,
                                                const cmsis_nn_dims *output_dims,
                                                arm_nn_tensor_layout layout);

/* ---- TRANSPOSE_CONV --------------------------------------------------------------------------- */

arm_cmsis_nn_status arm_transpose_conv_wrapper_f16(const cmsis_nn_context *ctx,
                                                   const cmsis_nn_context *output_ctx,
                                                   const cmsis_nn_transpose_conv_params_f16 *transpose_conv_params,
                                                   const cmsis_nn_dims *input_dims,
                                                   const float16_t *input_data,
                                                   const cmsis_nn_dims *filter_dims,
                                                   const float16_t *filter_data,
                                                   const cmsis_nn_dims *bias_dims,
                                                   const float16_t *bias_data,
                                                   const cmsis_nn_dims *output_dims,
                                                   float16_t *output_data,
                                                   arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_transpose_conv_f16(const cmsis_nn_context *ctx,
                                           const cmsis_nn_context *output_ctx,
                                           const cmsis_nn_transpose_conv_params_f16 *transpose_conv_params,
                                           const cmsis_nn_dims *input_dims,
                                           const float16_t *input_data,
                                           const cmsis_nn_dims *filter_dims,
                                           const float16_t *filter_data,
                                           const cmsis_nn_dims *bias_dims,
                                           const float16_t *bias_data,
                                           const cmsis_nn_dims *output_dims,
                                           float16_t *output_data,
                                           arm_nn_tensor_layout layout);

arm_cmsis_nn_status arm_transpose_conv_nhwc_f16(const cmsis_nn_context *ctx,
                                                const cmsis_nn_context *output_ctx,
                                                const cmsis_nn_transpose_conv_params_f16 *transpose_conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const float16_t *input_data,
                                                const cmsis_nn_dims *filter_dims,
                                                const float16_t *filter_data,
                                                const cmsis_nn_dims *bias_dims,
                                                const float16_t *bias_data,
                                                const cmsis_nn_dims *output_dims,
                                                float16_t *output_data);

int32_t arm_transpose_conv_f16_get_buffer_size(const cmsis_nn_transpose_conv_params_f16 *transpose_conv_params,
                                               const cmsis_nn_dims *input_dims,
                                               const cmsis_nn_dims *filter_dims,
                                               const cmsis_nn_dims *out_dims);

int32_t
arm_transpose_conv_f16_get_reverse_conv_buffer_size(const cmsis_nn_transpose_conv_params_f16 *transpose_conv_params,
                                                    const cmsis_nn_dims *input_dims,
                                                    const cmsis_nn_dims *filter_dims);

/* ---- AVERAGE_POOL_2D / MAX_POOL_2D ------------------------------------------------------------ */

arm_cmsis_nn_status arm_avg_pool_f16(const cmsis_nn_context *ctx,
                                     const cmsis_nn_pool_params_f16 *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float16_t *src,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     float16_t *dst);

arm_cmsis_nn_status arm_max_pool_f16(const cmsis_nn_context *ctx,
                                     const cmsis_nn_pool_params_f16 *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float16_t *src,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     float16_t *dst);

/* ---- SOFTMAX ---------------------------------------------------------------------------------- */

arm_cmsis_nn_status arm_softmax_f16(const float16_t *input, int32_t num_rows, int32_t row_size, float16_t *output);

/* ---- Activations ------------------------------------------------------------------------------ */

arm_cmsis_nn_status arm_nn_activation_f16(const float16_t *input,
                                          float16_t *output,
                                          int32_t size,
                                          arm_nn_activation_type_flt type,
                                          float16_t act_param);

/* ---- ADD / SUB / MUL (same shapes, no broadcasting), MAXIMUM / MINIMUM (broadcasting) ----------- */

arm_cmsis_nn_status arm_elementwise_add_f16(const float16_t *input_1_vect,
                                            const float16_t *input_2_vect,
                                            float16_t *output,
                                            float16_t out_activation_min,
                                            float16_t out_activation_max,
                                            int32_t block_size);

arm_cmsis_nn_status arm_elementwise_sub_f16(const float16_t *input_1_vect,
                                            const float16_t *input_2_vect,
                                            float16_t *output,
                                            float16_t out_activation_min,
                                            float16_t out_activation_max,
                                            int32_t block_size);

arm_cmsis_nn_status arm_elementwise_mul_f16(const float16_t *input_1_vect,
                                            const float16_t *input_2_vect,
                                            float16_t *output,
                                            float16_t out_activation_min,
                                            float16_t out_activation_max,
                                            int32_t block_size);

arm_cmsis_nn_status arm_maximum_f16(const cmsis_nn_context *ctx,
                                    const float16_t *input_1_data,
                                    const cmsis_nn_dims *input_1_dims,
                                    const float16_t *input_2_data,
                                    const cmsis_nn_dims *input_2_dims,
                                    float16_t *output_data,
                                    const cmsis_nn_dims *output_dims);

arm_cmsis_nn_status arm_minimum_f16(const cmsis_nn_context *ctx,
                                    const float16_t *input_1_data,
                                    const cmsis_nn_dims *input_1_dims,
                                    const float16_t *input_2_data,
                                    const cmsis_nn_dims *input_2_dims,
                                    float16_t *output_data,
                                    const cmsis_nn_dims *output_dims);

/* ---- PAD / STRIDED_SLICE / TRANSPOSE / SUM ---------------------------------------------------- */

arm_cmsis_nn_status arm_pad_f16(const float16_t *input,
                                float16_t *output,
                                float16_t pad_value,
                                const cmsis_nn_dims *input_size,
                                const cmsis_nn_dims *pre_pad,
                                const cmsis_nn_dims *post_pad);

arm_cmsis_nn_status arm_strided_slice_f16(const float16_t *input_data,
                                          float16_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims);

arm_cmsis_nn_status arm_transpose_f16(const cmsis_nn_context *ctx,
                                      const cmsis_nn_transpose_params_f16 *params,
                                      const cmsis_nn_dims *input_dims,
                                      const float16_t *input,
                                      const cmsis_nn_dims *output_dims,
                                      float16_t *output);

arm_cmsis_nn_status arm_reduce_sum_f16(const float16_t *input_data,
                                       const cmsis_nn_dims *input_dims,
                                       const cmsis_nn_dims *axis_dims,
                                       float16_t *output_data,
                                       const cmsis_nn_dims *output_dims);

#endif /* ARM_NN_ENABLE_F16 */

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM (float32) ------------------------------------------------- */

#if ARM_NN_ENABLE_F32

/* The whole sequence; buffers->cell_state is required, temp1 / temp2 are not read. */
arm_cmsis_nn_status arm_lstm_unidirectional_f32(const float32_t *input,
                                                float32_t *output,
                                                const cmsis_nn_lstm_params_f32 *params,
                                                cmsis_nn_lstm_context_f32 *buffers);

/* One time step for every batch; batch_offset is the distance between batches in time steps. */
arm_cmsis_nn_status arm_nn_lstm_step_f32(const float32_t *data_in,
                                         const float32_t *hidden_in,
                                         float32_t *hidden_out,
                                         const cmsis_nn_lstm_params_f32 *params,
                                         cmsis_nn_lstm_context_f32 *buffers,
                                         const int32_t batch_offset);

#endif /* ARM_NN_ENABLE_F32 */

/* ==== end of the UNIDIRECTIONAL_SEQUENCE_LSTM (float32) block ==== */

#ifdef __cplusplus
}
#endif

#endif /* ARM_NNFUNCTIONS_FLT_H */
