/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot Helium kernels: the convolutions' gathering of one output pixel's input window into a
 * column (ky, kx, channel order, as the filter rows), padding filled with a given byte. Shared by
 * helia_mve_convolve_s8 and helia_mve_convolve_s8_s32. */

#ifndef HELIA_HELIUM_MVE_GATHER_H
#define HELIA_HELIUM_MVE_GATHER_H

#include <arm_mve.h>
#include <stdint.h>

#include "mve_requantize.h"

typedef struct
{
    int32_t in_h, in_w, in_c;
    int32_t kernel_h, kernel_w;
    int32_t stride_h, stride_w;
    int32_t pad_h, pad_w;
    int32_t dilation_h, dilation_w;
    int32_t out_w;
} geometry;

/* dst[0 .. n) = src[0 .. n), sixteen bytes per tail-predicated step. */
HELIA_MVE_INLINE void copy_bytes(int8_t *dst, const int8_t *src, int32_t n)
{
    for (; n > 0; n -= 16, src += 16, dst += 16)
    {
        const mve_pred16_t lanes = vctp8q((uint32_t)n);
        vstrbq_p_s8(dst, vldrbq_z_s8(src, lanes), lanes);
    }
}

/* dst[0 .. n) = value. */
HELIA_MVE_INLINE void fill_bytes(int8_t *dst, int8x16_t value, int32_t n)
{
    for (; n > 0; n -= 16, dst += 16)
    {
        vstrbq_p_s8(dst, value, vctp8q((uint32_t)n));
    }
}

/* The input window of output pixel (oy, ox) as one column (ky, kx, channel order, as the filter).
 * A window wholly inside the input (most pixels) is kernel_h contiguous copies; any other reads tap by
 * tap, with the padding filled. */
__attribute__((noinline)) static void gather_column(const int8_t *image, const geometry *g, int32_t oy, int32_t ox,
                                                    int8x16_t pad, int8_t *column)
{
    const int32_t in_c = g->in_c;
    const int32_t y0 = oy * g->stride_h - g->pad_h;
    const int32_t x0 = ox * g->stride_w - g->pad_w;
    const int32_t line = g->in_w * in_c;
    const int32_t row_bytes = g->kernel_w * in_c;
    const int32_t y_last = y0 + (g->kernel_h - 1) * g->dilation_h;
    const int32_t x_last = x0 + (g->kernel_w - 1) * g->dilation_w;
    if (g->dilation_w == 1 && y0 >= 0 && x0 >= 0 && y_last < g->in_h && x_last < g->in_w)
    {
        const int8_t *src = image + y0 * line + x0 * in_c;
        const int32_t step = g->dilation_h * line;
        for (int32_t ky = g->kernel_h; ky > 0; --ky, src += step, column += row_bytes)
        {
            copy_bytes(column, src, row_bytes);
        }
        return;
    }
    /* Filter taps [kx_first, kx_end) of a row read inside the input when dilation_w is 1. */
    const int32_t kx_first = x0 < 0 ? (x0 < -g->kernel_w ? g->kernel_w : -x0) : 0;
    int32_t kx_end = g->in_w - x0;
    kx_end = kx_end > g->kernel_w ? g->kernel_w : (kx_end < kx_first ? kx_first : kx_end);
    for (int32_t ky = 0; ky < g->kernel_h; ++ky, column += row_bytes)
    {
        const int32_t y = y0 + ky * g->dilation_h;
        if (y < 0 || y >= g->in_h)
        {
            fill_bytes(column, pad, row_bytes);
            continue;
        }
        const int8_t *const row = image + y * line;
        if (g->dilation_w == 1)
        {
            fill_bytes(column, pad, kx_first * in_c);
            copy_bytes(column + kx_first * in_c, row + (x0 + kx_first) * in_c, (kx_end - kx_first) * in_c);
            fill_bytes(column + kx_end * in_c, pad, (g->kernel_w - kx_end) * in_c);
            continue;
        }
        for (int32_t kx = 0; kx < g->kernel_w; ++kx)
        {
            const int32_t x = x0 + kx * g->dilation_w;
            if (x < 0 || x >= g->in_w)
            {
                fill_bytes(column + kx * in_c, pad, in_c);
            }
            else
            {
                copy_bytes(column + kx * in_c, row + x * in_c, in_c);
            }
        }
    }
}

/* The output pixel after (oy, ox), row by row. */
HELIA_MVE_INLINE void next_pixel(int32_t *oy, int32_t *ox, int32_t out_w)
{
    if (++*ox == out_w)
    {
        *ox = 0;
        ++*oy;
    }
}

#endif /* HELIA_HELIUM_MVE_GATHER_H */
