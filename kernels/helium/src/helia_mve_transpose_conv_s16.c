/* SPDX-License-Identifier: Apache-2.0 */
/* int16 TRANSPOSE_CONV (A16W8) with LiteRT's int64 accumulator, which ns-cmsis-nn v7.29.2 has no entry
 * for, as the modules' inline loop computes it (ops/templates/transpose_conv_inline.c.j2, the wide case):
 * output (y, x, c) sums input (iy, ix, k) x filter (c, fy, fx, k) over the taps with
 * iy * stride_h - pad_h + fy == y (likewise x), adds the int64 bias, multiplies by the channel's
 * multiplier (rounded to 16 bits by the compiler) with one rounding right shift, adds the output offset
 * and clamps.
 *
 * helia_transpose_conv_s16 is that in plain C, gathered per output element as the inline loop is;
 * helia_mve_transpose_conv_s16 gives the same int16 outputs on Helium: four output channels per step
 * (their weights gathered), each input value times the four weights into int32 lanes. The sum of products
 * is exact in int32 when kh * kw * input channels * 32768 * 128 stays below 2^31, i.e. for at most 511
 * filter values per output channel; larger filters run the plain C. The bias, multiplication and shift
 * stay in int64, per output, as in the plain C. */

#include "helia_helium.h"

#include <stddef.h>

/* Largest kh * kw * input channels whose sum of int16 x int8 products cannot leave int32. */
#define MAX_INT32_TAPS 511

static int transpose_arguments_ok(const cmsis_nn_transpose_conv_params *params,
                                  const cmsis_nn_per_channel_quant_params *quant_params,
                                  const cmsis_nn_dims *input_dims, const int16_t *input,
                                  const cmsis_nn_dims *filter_dims, const int8_t *filter,
                                  const cmsis_nn_dims *output_dims, const int16_t *output)
{
    if (params == NULL || quant_params == NULL || quant_params->multiplier == NULL || quant_params->shift == NULL ||
        input_dims == NULL || input == NULL || filter_dims == NULL || filter == NULL || output_dims == NULL ||
        output == NULL)
    {
        return 0;
    }
    if (input_dims->n < 1 || input_dims->h < 1 || input_dims->w < 1 || input_dims->c < 1 || filter_dims->n < 1 ||
        filter_dims->h < 1 || filter_dims->w < 1 || filter_dims->c != input_dims->c ||
        output_dims->n != input_dims->n || output_dims->h < 1 || output_dims->w < 1 ||
        output_dims->c != filter_dims->n)
    {
        return 0;
    }
    if (params->input_offset != 0 || params->stride.h < 1 || params->stride.w < 1 || params->padding.h < 0 ||
        params->padding.w < 0 || params->activation.min < INT16_MIN || params->activation.max > INT16_MAX ||
        params->activation.min > params->activation.max)
    {
        return 0;
    }
    for (int32_t c = 0; c < output_dims->c; c++)
    {
        if (quant_params->shift[c] < 1 || quant_params->shift[c] > 62)
        {
            return 0;
        }
    }
    return 1;
}

/* The bias, the rounded multiplication and shift, the output offset and the clamp of one output. */
static int16_t requantize_wide(int64_t acc, const int64_t *bias, int32_t c,
                               const cmsis_nn_per_channel_quant_params *quant_params,
                               const cmsis_nn_transpose_conv_params *params)
{
    if (bias != NULL)
    {
        acc += bias[c];
    }
    const int32_t shift = quant_params->shift[c];
    const int64_t rounded = acc * quant_params->multiplier[c] + ((int64_t)1 << (shift - 1));
    int32_t scaled = (int32_t)(rounded >> shift);
    scaled += params->output_offset;
    scaled = scaled < params->activation.min ? params->activation.min
                                             : (scaled > params->activation.max ? params->activation.max : scaled);
    return (int16_t)scaled;
}

arm_cmsis_nn_status helia_transpose_conv_s16(const cmsis_nn_transpose_conv_params *params,
                                             const cmsis_nn_per_channel_quant_params *quant_params,
                                             const cmsis_nn_dims *input_dims, const int16_t *input,
                                             const cmsis_nn_dims *filter_dims, const int8_t *filter,
                                             const int64_t *bias, const cmsis_nn_dims *output_dims,
                                             int16_t *output)
{
    if (!transpose_arguments_ok(params, quant_params, input_dims, input, filter_dims, filter, output_dims, output))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t ih = input_dims->h, iw = input_dims->w, ic = input_dims->c;
    const int32_t fh = filter_dims->h, fw = filter_dims->w;
    const int32_t oh = output_dims->h, ow = output_dims->w, oc = output_dims->c;
    const int32_t stride_h = params->stride.h, stride_w = params->stride.w;
    for (int32_t b = 0; b < input_dims->n; b++)
    {
        for (int32_t y = 0; y < oh; y++)
        {
            for (int32_t x = 0; x < ow; x++)
            {
                for (int32_t c = 0; c < oc; c++)
                {
                    int64_t acc = 0;
                    for (int32_t fy = 0; fy < fh; fy++)
                    {
                        const int32_t ty = y + params->padding.h - fy;
                        if (ty < 0 || ty % stride_h != 0 || ty / stride_h >= ih)
                        {
                            continue;
                        }
                        for (int32_t fx = 0; fx < fw; fx++)
                        {
                            const int32_t tx = x + params->padding.w - fx;
                            if (tx < 0 || tx % stride_w != 0 || tx / stride_w >= iw)
                            {
                                continue;
                            }
                            const int16_t *in = input + ((b * ih + ty / stride_h) * iw + tx / stride_w) * ic;
                            const int8_t *w = filter + ((c * fh + fy) * fw + fx) * ic;
                            for (int32_t k = 0; k < ic; k++)
                            {
                                acc += (int64_t)in[k] * w[k];
                            }
                        }
                    }
                    output[((b * oh + y) * ow + x) * oc + c] = requantize_wide(acc, bias, c, quant_params, params);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>

/* Output channels summed per block before they are requantized (the block's sums live on the stack). */
#define CHANNEL_BLOCK 64

/* The taps of one output row (or column) position: filter index and input index of each, in filter
 * order; the filter index runs from (position + pad) % stride in steps of stride. */
static int32_t taps_of(int32_t position, int32_t pad, int32_t stride, int32_t filter_size, int32_t input_size,
                       int32_t *filter_index, int32_t *input_index)
{
    int32_t count = 0;
    const int32_t t = position + pad;
    for (int32_t f = t % stride; f < filter_size && f <= t; f += stride)
    {
        const int32_t i = (t - f) / stride;
        if (i < input_size)
        {
            filter_index[count] = f;
            input_index[count] = i;
            count++;
        }
    }
    return count;
}

arm_cmsis_nn_status helia_mve_transpose_conv_s16(const cmsis_nn_transpose_conv_params *params,
                                                 const cmsis_nn_per_channel_quant_params *quant_params,
                                                 const cmsis_nn_dims *input_dims, const int16_t *input,
                                                 const cmsis_nn_dims *filter_dims, const int8_t *filter,
                                                 const int64_t *bias, const cmsis_nn_dims *output_dims,
                                                 int16_t *output)
{
    if (!transpose_arguments_ok(params, quant_params, input_dims, input, filter_dims, filter, output_dims, output))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t ih = input_dims->h, iw = input_dims->w, ic = input_dims->c;
    const int32_t fh = filter_dims->h, fw = filter_dims->w;
    const int32_t oh = output_dims->h, ow = output_dims->w, oc = output_dims->c;
    if (fh * fw * ic > MAX_INT32_TAPS || fh > 32 || fw > 32)
    {
        return helia_transpose_conv_s16(params, quant_params, input_dims, input, filter_dims, filter, bias,
                                        output_dims, output);
    }
    const int32_t channel_stride = fh * fw * ic; /* bytes from one output channel's filter to the next */
    const uint32x4_t channel_offsets = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)channel_stride);
    int32_t fy_of[32], iy_of[32], fx_of[32], ix_of[32];
    int32_t sums[CHANNEL_BLOCK] __attribute__((aligned(16)));
    for (int32_t b = 0; b < input_dims->n; b++)
    {
        const int16_t *image = input + b * ih * iw * ic;
        for (int32_t y = 0; y < oh; y++)
        {
            const int32_t rows = taps_of(y, params->padding.h, params->stride.h, fh, ih, fy_of, iy_of);
            for (int32_t x = 0; x < ow; x++)
            {
                const int32_t columns = taps_of(x, params->padding.w, params->stride.w, fw, iw, fx_of, ix_of);
                int16_t *out = output + ((b * oh + y) * ow + x) * oc;
                for (int32_t c0 = 0; c0 < oc; c0 += CHANNEL_BLOCK)
                {
                    const int32_t block = (oc - c0 < CHANNEL_BLOCK) ? oc - c0 : CHANNEL_BLOCK;
                    for (int32_t c = 0; c < block; c += 4)
                    {
                        const mve_pred16_t lanes = vctp32q((uint32_t)(block - c));
                        int32x4_t acc = vdupq_n_s32(0);
                        for (int32_t r = 0; r < rows; r++)
                        {
                            for (int32_t q = 0; q < columns; q++)
                            {
                                const int16_t *in = image + (iy_of[r] * iw + ix_of[q]) * ic;
                                const int8_t *w = filter + ((c0 + c) * fh + fy_of[r]) * fw * ic + fx_of[q] * ic;
                                for (int32_t k = 0; k < ic; k++)
                                {
                                    const int32x4_t weights = vldrbq_gather_offset_z_s32(w + k, channel_offsets, lanes);
                                    acc = vmlaq_n_s32(acc, weights, (int32_t)in[k]);
                                }
                            }
                        }
                        vstrwq_p_s32(sums + c, acc, lanes);
                    }
                    for (int32_t c = 0; c < block; c++)
                    {
                        out[c0 + c] = requantize_wide((int64_t)sums[c], bias, c0 + c, quant_params, params);
                    }
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* no MVE (e.g. a host build of a module converted for a Helium core) */

/* The plain C above: the same outputs. */
arm_cmsis_nn_status helia_mve_transpose_conv_s16(const cmsis_nn_transpose_conv_params *params,
                                                 const cmsis_nn_per_channel_quant_params *quant_params,
                                                 const cmsis_nn_dims *input_dims, const int16_t *input,
                                                 const cmsis_nn_dims *filter_dims, const int8_t *filter,
                                                 const int64_t *bias, const cmsis_nn_dims *output_dims,
                                                 int16_t *output)
{
    return helia_transpose_conv_s16(params, quant_params, input_dims, input, filter_dims, filter, bias, output_dims,
                                    output);
}

#endif
