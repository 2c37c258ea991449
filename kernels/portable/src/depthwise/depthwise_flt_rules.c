/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private scratch size and shape tests of the float DEPTHWISE_CONV_2D entry points. */

#include "depthwise_flt_rules.h"
#include "../support/checked_bytes.h"

#define HELIA_DW_FLT_TILE_ROWS (4)

static int helia_unit(cmsis_nn_tile t)
{
    return t.w == 1 && t.h == 1;
}

static int helia_zero(cmsis_nn_tile t)
{
    return t.w == 0 && t.h == 0;
}

int32_t helia_dw_flt_scratch(const helia_dw_flt_geometry *g,
                             const cmsis_nn_dims *input_dims,
                             const cmsis_nn_dims *filter_dims,
                             size_t element_size)
{
    if (g->ch_mult != 1 || !helia_unit(g->dilation) || input_dims->c <= 0 || filter_dims->w <= 0 ||
        filter_dims->h <= 0)
    {
        return 0;
    }
    return helia_checked_bytes((uint64_t)HELIA_DW_FLT_TILE_ROWS * (uint64_t)filter_dims->w,
                               (uint64_t)filter_dims->h, (uint64_t)input_dims->c, element_size);
}

int helia_dw_flt_is_row_3(const helia_dw_flt_geometry *g,
                          const cmsis_nn_dims *input_dims,
                          const cmsis_nn_dims *filter_dims,
                          const cmsis_nn_dims *output_dims)
{
    return input_dims->n == 1 && output_dims->n == 1 && g->ch_mult == 1 && filter_dims->w == 3 &&
        filter_dims->h == 1 && input_dims->h == 1 && output_dims->h == 1 && helia_unit(g->dilation) &&
        helia_unit(g->stride) && helia_zero(g->padding);
}

int helia_dw_flt_is_3x3(const helia_dw_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const cmsis_nn_dims *filter_dims,
                        const cmsis_nn_dims *output_dims)
{
    return input_dims->n > 0 && input_dims->n == output_dims->n && g->ch_mult == 1 && filter_dims->w == 3 &&
        filter_dims->h == 3 && helia_unit(g->dilation);
}

int helia_dw_flt_is_2x5(const helia_dw_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const cmsis_nn_dims *filter_dims,
                        const cmsis_nn_dims *output_dims)
{
    return filter_dims->w == 5 && filter_dims->h == 2 && input_dims->h == 2 && output_dims->h == 1 &&
        helia_unit(g->dilation) && helia_unit(g->stride) && helia_zero(g->padding);
}
