/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private bit helpers of the TFLM Signal kernels (static inline, not exported). */

#ifndef HELIA_SIGNAL_BITS_H
#define HELIA_SIGNAL_BITS_H

#include <stdint.h>

/*
 * Index of the most significant set bit, counted from 1 (the bit length), as TFLM's
 * MostSignificantBit32/64 compute it on GCC and Clang builds (its reference on x86 and Cortex-M).
 * Zero gives 32 / 64 there (its __builtin_clz path), not 0: FftAutoScale's shift depends on it.
 */
static inline uint32_t helia_signal_bits_msb32(uint32_t x)
{
    uint32_t n = 0;
    if (x == 0u)
    {
        return 32u;
    }
    while (x != 0u)
    {
        x >>= 1;
        ++n;
    }
    return n;
}

static inline uint32_t helia_signal_bits_msb64(uint64_t x)
{
    uint32_t n = 0;
    if (x == 0u)
    {
        return 64u;
    }
    while (x != 0u)
    {
        x >>= 1;
        ++n;
    }
    return n;
}

/* floor(v / 2^s) for s in [0, 31], without right-shifting a negative value (implementation-defined in C). */
static inline int32_t helia_signal_bits_asr32(int32_t v, int32_t s)
{
    return v >= 0 ? (int32_t)(v >> s) : (int32_t)~((~v) >> s);
}

/*
 * Integer square root rounded to nearest, as TFLM's Sqrt32 computes it: the digit-by-digit root
 * (floor), plus one when the remainder exceeds the root, unless the root is already 0xFFFF.
 */
static inline uint16_t helia_signal_bits_sqrt32(uint32_t num)
{
    uint32_t res = 0;
    uint32_t bit;
    int32_t top;
    if (num == 0u)
    {
        return 0;
    }
    /* bit starts at the highest power of four not above num (an even bit index). */
    top = (int32_t)(32u - helia_signal_bits_msb32(num)) | 1;
    bit = 1u << (31 - top);
    for (int32_t i = (31 - top) / 2 + 1; i > 0; --i)
    {
        if (num >= res + bit)
        {
            num -= res + bit;
            res = (res >> 1) + bit;
        }
        else
        {
            res >>= 1;
        }
        bit >>= 2;
    }
    if (num > res && res != 0xFFFFu)
    {
        ++res;
    }
    return (uint16_t)res;
}

/* The 64-bit root (TFLM's Sqrt64): Sqrt32 when the upper word is clear, else the same digit loop in
 * 64 bits, rounded the same way short of 0xFFFFFFFF; the result is the low 32 bits. */
static inline uint32_t helia_signal_bits_sqrt64(uint64_t num)
{
    uint64_t res = 0;
    uint64_t bit;
    int32_t top;
    if ((num >> 32) == 0u)
    {
        return helia_signal_bits_sqrt32((uint32_t)num);
    }
    top = (int32_t)(64u - helia_signal_bits_msb64(num)) | 1;
    bit = (uint64_t)1u << (63 - top);
    for (int32_t i = (63 - top) / 2 + 1; i > 0; --i)
    {
        if (num >= res + bit)
        {
            num -= res + bit;
            res = (res >> 1) + bit;
        }
        else
        {
            res >>= 1;
        }
        bit >>= 2;
    }
    if (num > res && res != 0xFFFFFFFFu)
    {
        ++res;
    }
    return (uint32_t)res;
}

#endif /* HELIA_SIGNAL_BITS_H */
