/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private scratch sizes and route choice of the float CONV_2D entry points. */

#include "conv_flt_rules.h"
#include "../support/checked_bytes.h"

/* ns-cmsis-nn packs up to 8 output pixels' windows at a time and uses the packed route only for
 * windows of at least 16 values, 8 output channels and 8 output pixels. */
#define HELIA_CONV_FLT_TILE_ROWS (8)
#define HELIA_CONV_FLT_MIN_WINDOW (16)
#define HELIA_CONV_FLT_MIN_OUT_CH (8)
#define HELIA_CONV_FLT_MIN_PIXELS (8)

int helia_conv_flt_is_1x1(const helia_conv_flt_geometry *g, const cmsis_nn_dims *filter_dims)
{
    return filter_dims->h == 1 && filter_dims->w == 1 && g->padding.h == 0 && g->padding.w == 0;
}

int helia_conv_flt_is_1xn(const helia_conv_flt_geometry *g,
                          const cmsis_nn_dims *input_dims,
                          const cmsis_nn_dims *filter_dims,
                          const cmsis_nn_dims *output_dims)
{
    return input_dims->h == 1 && output_dims->h == 1 && filter_dims->h == 1 && filter_dims->w > 1 &&
        g->stride.h == 1 && g->stride.w > 0 && g->padding.h == 0 && g->dilation.h == 1 && g->dilation.w == 1;
}

/* The 1x3 / 1x5 single-row shapes ns-cmsis-nn hands to dedicated row kernels (batch 1 only). */
static int helia_conv_flt_is_row(const helia_conv_flt_geometry *g,
                                 const cmsis_nn_dims *input_dims,
                                 const cmsis_nn_dims *filter_dims,
                                 const cmsis_nn_dims *output_dims,
                                 int32_t width)
{
    return input_dims->n == 1 && input_dims->h == 1 && output_dims->h == 1 && filter_dims->h == 1 &&
        filter_dims->w == width && g->stride.h == 1 && g->stride.w == 1 && g->padding.h == 0 && g->padding.w == 0 &&
        g->dilation.h == 1 && g->dilation.w == 1;
}

int32_t helia_conv_flt_1x1_scratch(const helia_conv_flt_geometry *g,
                                   const cmsis_nn_dims *input_dims,
                                   const cmsis_nn_dims *filter_dims,
                                   const cmsis_nn_dims *output_dims,
                                   size_t element_size)
{
    if (!helia_conv_flt_is_1x1(g, filter_dims) || input_dims->c <= 0)
    {
        return 0;
    }
    /* stride 1 over the same grid is one matrix product straight from the input */
    if (g->stride.h == 1 && g->stride.w == 1 && output_dims->h == input_dims->h && output_dims->w == input_dims->w)
    {
        return 0;
    }
    return helia_checked_bytes(HELIA_CONV_FLT_TILE_ROWS, (uint64_t)input_dims->c, element_size, 1);
}

int32_t helia_conv_flt_1xn_scratch(const helia_conv_flt_geometry *g,
                                   const cmsis_nn_dims *input_dims,
                                   const cmsis_nn_dims *filter_dims,
                                   const cmsis_nn_dims *output_dims,
                                   size_t element_size)
{
    if (!helia_conv_flt_is_1xn(g, input_dims, filter_dims, output_dims) || input_dims->c <= 0 ||
        input_dims->c != filter_dims->c)
    {
        return 0;
    }
    return helia_checked_bytes((uint64_t)filter_dims->w, (uint64_t)input_dims->c, element_size, 1);
}

int32_t helia_conv_flt_scratch(const helia_conv_flt_geometry *g,
                               const cmsis_nn_dims *input_dims,
                               const cmsis_nn_dims *filter_dims,
                               const cmsis_nn_dims *output_dims,
                               size_t element_size)
{
    if (input_dims->c <= 0 || filter_dims->h <= 0 || filter_dims->w <= 0 || output_dims->c <= 0)
    {
        return 0;
    }
    if (helia_conv_flt_is_1x1(g, filter_dims))
    {
        return helia_conv_flt_1x1_scratch(g, input_dims, filter_dims, output_dims, element_size);
    }
    if (helia_conv_flt_is_1xn(g, input_dims, filter_dims, output_dims) &&
        !helia_conv_flt_is_row(g, input_dims, filter_dims, output_dims, 3) &&
        !helia_conv_flt_is_row(g, input_dims, filter_dims, output_dims, 5))
    {
        return helia_conv_flt_1xn_scratch(g, input_dims, filter_dims, output_dims, element_size);
    }
    return helia_checked_bytes(HELIA_CONV_FLT_TILE_ROWS * (uint64_t)filter_dims->h, (uint64_t)filter_dims->w,
                       (uint64_t)input_dims->c, element_size);
}

helia_conv_flt_route helia_conv_flt_route_for(const helia_conv_flt_geometry *g,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *output_dims,
                                              size_t element_size)
{
    if (helia_conv_flt_is_1x1(g, filter_dims))
    {
        return HELIA_CONV_FLT_1X1;
    }
    const int32_t scratch = helia_conv_flt_scratch(g, input_dims, filter_dims, output_dims, element_size);
    const int row_5 = helia_conv_flt_is_row(g, input_dims, filter_dims, output_dims, 5);
    const int row_3 = helia_conv_flt_is_row(g, input_dims, filter_dims, output_dims, 3);
    if (scratch > 0 && helia_conv_flt_is_1xn(g, input_dims, filter_dims, output_dims) && !row_3 && !row_5)
    {
        const int32_t needed = helia_conv_flt_1xn_scratch(g, input_dims, filter_dims, output_dims, element_size);
        if (needed > 0 && scratch >= needed)
        {
            return HELIA_CONV_FLT_PATCH;
        }
    }
    if (row_5)
    {
        return HELIA_CONV_FLT_ROW_5;
    }
    if (row_3)
    {
        return HELIA_CONV_FLT_ROW_3;
    }
    const int64_t window = (int64_t)filter_dims->h * filter_dims->w * input_dims->c;
    const int64_t pixels = (int64_t)output_dims->h * output_dims->w;
    if (scratch > 0 && window >= HELIA_CONV_FLT_MIN_WINDOW && output_dims->c >= HELIA_CONV_FLT_MIN_OUT_CH &&
        pixels >= HELIA_CONV_FLT_MIN_PIXELS && (uint64_t)scratch >= (uint64_t)window * element_size)
    {
        return HELIA_CONV_FLT_PATCH;
    }
    return HELIA_CONV_FLT_DIRECT;
}
