/* SPDX-License-Identifier: Apache-2.0 */
/* int32 sums to float outputs: the float part of LiteRT's hybrid (dynamic-range) CONV_2D and
 * FULLY_CONNECTED after the int8 products (helia_mve_convolve_s8_s32), in the modules' own arithmetic
 * (ops/templates/conv_2d_hybrid.c.j2, fully_connected_hybrid.c.j2):
 *
 *   HELIA_RESCALE_CONV   value = (float)sum * channel_scale[c] * scale   (or (float)sum * scale)
 *                        value += bias[c]                                (with a bias)
 *   HELIA_RESCALE_DENSE  value = bias[c] + (float)sum * (scale * channel_scale[c])   (or * scale;
 *                        0.0f in place of the bias without one)
 *   then value = (value < min) ? min : value; value = (value > max) ? max : value.
 *
 * helia_rescale_s32_f32 is that in plain C; helia_mve_rescale_s32_f32 gives the same bits on Helium,
 * four channels per step with the same IEEE operations in the same order, when the call's constants keep
 * every intermediate away from the subnormal range (see vector_exact); other calls run the plain C. */

#include "helia_helium.h"

#include <float.h>
#include <stddef.h>

static int rescale_arguments_ok(const helia_rescale_params *params, const int32_t *sums, int32_t pixels,
                                int32_t channels, const float *output)
{
    return params != NULL && sums != NULL && output != NULL && pixels >= 1 && channels >= 1 &&
           (params->order == HELIA_RESCALE_CONV || params->order == HELIA_RESCALE_DENSE);
}

arm_cmsis_nn_status helia_rescale_s32_f32(const helia_rescale_params *params, const int32_t *sums, int32_t pixels,
                                          int32_t channels, float *output)
{
    if (!rescale_arguments_ok(params, sums, pixels, channels, output))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const float scale = params->scale;
    const float *channel_scale = params->channel_scale;
    const float *bias = params->bias;
    const float min = params->activation_min;
    const float max = params->activation_max;
    /* Element by element, in place when output is sums: each sum is read before its float is written. */
    for (int32_t pixel = 0; pixel < pixels; pixel++)
    {
        const int32_t *sum = sums + pixel * channels;
        float *out = output + pixel * channels;
        for (int32_t c = 0; c < channels; c++)
        {
            float value;
            if (params->order == HELIA_RESCALE_CONV)
            {
                if (channel_scale != NULL)
                {
                    value = (float)sum[c] * channel_scale[c] * scale;
                }
                else
                {
                    value = (float)sum[c] * scale;
                }
                if (bias != NULL)
                {
                    value += bias[c];
                }
            }
            else
            {
                const float multiplier = (channel_scale != NULL) ? (scale * channel_scale[c]) : scale;
                value = ((bias != NULL) ? bias[c] : 0.0f) + (float)sum[c] * multiplier;
            }
            value = (value < min) ? min : value;
            value = (value > max) ? max : value;
            out[c] = value;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

/* The MVE floating-point instructions need MVE with floating point (-mcpu=cortex-m55 with an FPU). */
#if HELIA_HELIUM_AVAILABLE && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)

#include <arm_mve.h>

/* MVE floating point runs with the standard FPSCR value: subnormal operands and results are flushed to
 * zero and NaNs are the default NaN, where the scalar FPU keeps both. Neither can happen in a call whose
 * scale, channel scales, biases and bounds pass vector_exact:
 *   - every operand is normal, zero or infinite (a sum converts to an integer-valued float);
 *   - a product with a non-zero sum is at least SMALLEST in magnitude: |sum| >= 1 and rounding is
 *     monotonic, so |sum * cs| >= |cs| (normal) and |sum * cs * scale| >= round(|cs| * |scale|), and
 *     likewise |sum * (scale * cs)| >= |scale * cs|;
 *   - a product and a bias of magnitude 0 or at least 2^-102 are multiples of 2^-125, so their sum is 0
 *     or at least 2^-125, never subnormal;
 *   - no operation meets NaN or 0 x infinity (the constants are finite, a product may overflow to an
 *     infinity, which the bias and the bounds leave as the scalar FPU does).
 * So each operation rounds the same exact value the same way in both units. -ffp-contract=off (the
 * default of -std=c99) keeps the multiplications and additions apart, as in the plain C. */
#define SMALLEST 0x1p-102f

static float magnitude(float x)
{
    return (x < 0.0f) ? -x : x;
}

static int normal_finite(float x)
{
    const float a = magnitude(x);
    return a >= FLT_MIN && a <= FLT_MAX;
}

/* Zero, normal or infinite: not subnormal, not NaN. */
static int not_subnormal(float x)
{
    const float a = magnitude(x);
    return a == 0.0f || a >= FLT_MIN;
}

static int vector_exact(const helia_rescale_params *params, int32_t channels)
{
    const float scale = params->scale;
    if (!normal_finite(scale) || !not_subnormal(params->activation_min) || !not_subnormal(params->activation_max))
    {
        return 0;
    }
    if (params->channel_scale == NULL && !(magnitude(scale) >= SMALLEST))
    {
        return 0;
    }
    for (int32_t c = 0; c < channels; c++)
    {
        if (params->channel_scale != NULL)
        {
            const float cs = params->channel_scale[c];
            const float smallest_product =
                (params->order == HELIA_RESCALE_CONV) ? magnitude(cs) * magnitude(scale) : magnitude(scale * cs);
            if (!normal_finite(cs) || !(smallest_product >= SMALLEST) || !(smallest_product <= FLT_MAX))
            {
                return 0;
            }
        }
        if (params->bias != NULL)
        {
            const float b = magnitude(params->bias[c]);
            if (!(b == 0.0f || (b >= SMALLEST && b <= FLT_MAX)))
            {
                return 0;
            }
        }
    }
    return 1;
}

arm_cmsis_nn_status helia_mve_rescale_s32_f32(const helia_rescale_params *params, const int32_t *sums,
                                              int32_t pixels, int32_t channels, float *output)
{
    if (!rescale_arguments_ok(params, sums, pixels, channels, output))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (!vector_exact(params, channels))
    {
        return helia_rescale_s32_f32(params, sums, pixels, channels, output);
    }
    const float scale = params->scale;
    const float *const channel_scale = params->channel_scale;
    const float *const bias = params->bias;
    const int conv = params->order == HELIA_RESCALE_CONV;
    const float32x4_t min = vdupq_n_f32(params->activation_min);
    const float32x4_t max = vdupq_n_f32(params->activation_max);
    const float32x4_t zero = vdupq_n_f32(0.0f);
    for (int32_t pixel = 0; pixel < pixels; pixel++)
    {
        const int32_t *sum = sums + pixel * channels;
        float *out = output + pixel * channels;
        for (int32_t c = 0; c < channels; c += 4)
        {
            const mve_pred16_t tail = vctp32q((uint32_t)(channels - c));
            const float32x4_t s = vcvtq_f32_s32(vldrwq_z_s32(sum + c, tail));
            float32x4_t value;
            if (conv)
            {
                value = (channel_scale != NULL) ? vmulq_n_f32(vmulq_f32(s, vldrwq_z_f32(channel_scale + c, tail)), scale)
                                                : vmulq_n_f32(s, scale);
                if (bias != NULL)
                {
                    value = vaddq_f32(value, vldrwq_z_f32(bias + c, tail));
                }
            }
            else
            {
                const float32x4_t multiplier = (channel_scale != NULL)
                                                   ? vmulq_f32(vdupq_n_f32(scale), vldrwq_z_f32(channel_scale + c, tail))
                                                   : vdupq_n_f32(scale);
                value = vaddq_f32((bias != NULL) ? vldrwq_z_f32(bias + c, tail) : zero, vmulq_f32(s, multiplier));
            }
            /* Only GT compares as C's `<` and `>` do (a vector LT holds for unordered operands). */
            value = vpselq_f32(min, value, vcmpgtq_f32(min, value));
            value = vpselq_f32(max, value, vcmpgtq_f32(value, max));
            vstrwq_p_f32(out + c, value, tail);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* no MVE floating point (e.g. a host build of a module converted for a Helium core) */

/* The plain C above: the same bits. */
arm_cmsis_nn_status helia_mve_rescale_s32_f32(const helia_rescale_params *params, const int32_t *sums,
                                              int32_t pixels, int32_t channels, float *output)
{
    return helia_rescale_s32_f32(params, sums, pixels, channels, output);
}

#endif
