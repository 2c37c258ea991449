/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot Helium kernels: private MVE requantization, bit-identical to the portable kernels'
 * helia_requantize (TFLite's two-step rounding) on four int32 lanes. */

#ifndef HELIA_HELIUM_MVE_REQUANTIZE_H
#define HELIA_HELIUM_MVE_REQUANTIZE_H

#include <arm_mve.h>

#define HELIA_MVE_INLINE static inline __attribute__((always_inline))

/*
 * acc * multiplier * 2^shift per lane, from the per-lane split of the shift:
 * left = max(shift, 0), neg_right = min(shift, 0). Steps, as in the scalar reference:
 * 1. acc << left, wrapping (VSHL by a register does not saturate);
 * 2. round(acc * multiplier / 2^31), ties up (VQRDMULH; it saturates only INT32_MIN * INT32_MIN,
 *    which needs a multiplier of INT32_MIN, never a valid one);
 * 3. round(v / 2^right), ties away from zero. VRSHL by a negative count rounds ties up, so a
 *    negative v whose lane shifts at all is lowered by one first (saturating: INT32_MIN stays,
 *    and still rounds to the right value).
 * with_left: 0 when no lane has a positive shift (the common case), which skips step 1.
 */
HELIA_MVE_INLINE int32x4_t helia_mve_requantize_q(int32x4_t acc,
                                                  int32x4_t multiplier,
                                                  int32x4_t left,
                                                  int32x4_t neg_right,
                                                  int32_t with_left)
{
    if (with_left)
    {
        acc = vshlq_s32(acc, left);
    }
    const int32x4_t scaled = vqrdmulhq_s32(acc, multiplier);
    /* Sign bit of (scaled & neg_right) is set exactly when scaled < 0 and the lane shifts right. */
    const int32x4_t lower = vshrq_n_s32(vandq_s32(scaled, neg_right), 31);
    return vrshlq_s32(vqaddq_s32(scaled, lower), neg_right);
}

/* The same, with the per-lane values read from memory. */
HELIA_MVE_INLINE int32x4_t helia_mve_requantize(int32x4_t acc,
                                                const int32_t *multiplier,
                                                const int32_t *left,
                                                const int32_t *neg_right,
                                                int32_t with_left)
{
    if (with_left)
    {
        acc = vshlq_s32(acc, vldrwq_s32(left));
    }
    return helia_mve_requantize_q(acc, vldrwq_s32(multiplier), vdupq_n_s32(0), vldrwq_s32(neg_right), 0);
}

#endif /* HELIA_HELIUM_MVE_REQUANTIZE_H */
