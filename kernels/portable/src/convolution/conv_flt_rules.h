/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private scratch sizes and route choice of the float CONV_2D entry points. */

#ifndef HELIA_PORTABLE_CONV_FLT_RULES_H
#define HELIA_PORTABLE_CONV_FLT_RULES_H

#include "arm_nnfunctions.h"

/*
 * The float32 and float16 convolutions share these rules; element_size is 4 or 2. The geometry of a
 * call: stride, leading padding and dilation as in cmsis_nn_conv_params_f32 / _f16.
 */
typedef struct
{
    cmsis_nn_tile stride;
    cmsis_nn_tile padding;
    cmsis_nn_tile dilation;
} helia_conv_flt_geometry;

/* ns-cmsis-nn's arm_convolve_{1x1,1_x_n,}_f32/_f16_get_buffer_size for the NHWC layout, in bytes. */
int32_t helia_conv_flt_1x1_scratch(const helia_conv_flt_geometry *g,
                                   const cmsis_nn_dims *input_dims,
                                   const cmsis_nn_dims *filter_dims,
                                   const cmsis_nn_dims *output_dims,
                                   size_t element_size);
int32_t helia_conv_flt_1xn_scratch(const helia_conv_flt_geometry *g,
                                   const cmsis_nn_dims *input_dims,
                                   const cmsis_nn_dims *filter_dims,
                                   const cmsis_nn_dims *output_dims,
                                   size_t element_size);
int32_t helia_conv_flt_scratch(const helia_conv_flt_geometry *g,
                               const cmsis_nn_dims *input_dims,
                               const cmsis_nn_dims *filter_dims,
                               const cmsis_nn_dims *output_dims,
                               size_t element_size);

/* 1x1 filter and no padding: arm_convolve_1x1_*'s shapes. */
int helia_conv_flt_is_1x1(const helia_conv_flt_geometry *g, const cmsis_nn_dims *filter_dims);

/* One row in and out, a 1 x N (N > 1) filter, stride.h 1, no vertical padding, dilation 1:
 * arm_convolve_1_x_n_*'s shapes. */
int helia_conv_flt_is_1xn(const helia_conv_flt_geometry *g,
                          const cmsis_nn_dims *input_dims,
                          const cmsis_nn_dims *filter_dims,
                          const cmsis_nn_dims *output_dims);

/* How a float convolution sums, by route (see arm_convolve_f32.c). */
typedef enum
{
    HELIA_CONV_FLT_1X1,    /* bias + one dot product over the input channels */
    HELIA_CONV_FLT_PATCH,  /* bias + one dot product over the whole window, padding read as 0 */
    HELIA_CONV_FLT_ROW_3,  /* one row, 1x3 filter, stride 1, no padding: channel by channel, tap by tap */
    HELIA_CONV_FLT_ROW_5,  /* the same for a 1x5 filter */
    HELIA_CONV_FLT_DIRECT, /* bias, then one dot product per window position inside the input */
} helia_conv_flt_route;

/*
 * The route ns-cmsis-nn's arm_convolve_nhwc_* takes when given the scratch its
 * arm_convolve_*_get_buffer_size asks for (as generated code does). Its 1 x N route and its
 * window-packing route compute the same sums, so both are HELIA_CONV_FLT_PATCH.
 */
helia_conv_flt_route helia_conv_flt_route_for(const helia_conv_flt_geometry *g,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *output_dims,
                                              size_t element_size);

#endif /* HELIA_PORTABLE_CONV_FLT_RULES_H */
