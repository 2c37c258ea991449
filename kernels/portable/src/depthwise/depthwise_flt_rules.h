/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private scratch size and shape tests of the float DEPTHWISE_CONV_2D entry points. */

#ifndef HELIA_PORTABLE_DEPTHWISE_FLT_RULES_H
#define HELIA_PORTABLE_DEPTHWISE_FLT_RULES_H

#include "arm_nnfunctions.h"

/* The geometry of a float depthwise call, as in cmsis_nn_dw_conv_params_f32 / _f16. */
typedef struct
{
    int32_t ch_mult;
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile dilation;
} helia_dw_flt_geometry;

/*
 * ns-cmsis-nn's arm_depthwise_conv_f32/_f16_get_buffer_size (plain-C build) for the NHWC layout:
 * 4 packed output pixels' windows (4 * kh * kw * channels elements) when ch_mult and dilation are 1,
 * else 0. element_size is 4 or 2.
 */
int32_t helia_dw_flt_scratch(const helia_dw_flt_geometry *g,
                             const cmsis_nn_dims *input_dims,
                             const cmsis_nn_dims *filter_dims,
                             size_t element_size);

/* Batch 1, one row in and out, 1x3 filter, ch_mult 1, stride and dilation 1, no padding. */
int helia_dw_flt_is_row_3(const helia_dw_flt_geometry *g,
                          const cmsis_nn_dims *input_dims,
                          const cmsis_nn_dims *filter_dims,
                          const cmsis_nn_dims *output_dims);

/* 3x3 filter, ch_mult 1, dilation 1, matching non-empty batches (any stride and padding). */
int helia_dw_flt_is_3x3(const helia_dw_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const cmsis_nn_dims *filter_dims,
                        const cmsis_nn_dims *output_dims);

/* Two input rows to one output row through a 2x5 filter, stride and dilation 1, no padding. */
int helia_dw_flt_is_2x5(const helia_dw_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const cmsis_nn_dims *filter_dims,
                        const cmsis_nn_dims *output_dims);

#endif /* HELIA_PORTABLE_DEPTHWISE_FLT_RULES_H */
