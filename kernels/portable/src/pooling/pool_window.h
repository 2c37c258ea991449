/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the in-bounds part of a pooling window along one axis. */

#ifndef HELIA_PORTABLE_POOL_WINDOW_H
#define HELIA_PORTABLE_POOL_WINDOW_H

#include <stdint.h>

/*
 * The input positions [*begin, *end) that a window of `size` taps starting at `origin` covers inside
 * an axis of `extent` positions; empty (begin == end) when the window misses the axis. Walking these
 * instead of every tap keeps a window far larger than the input (LiteRT accepts up to 2^16 per side
 * with SAME padding: 2^32 taps) as cheap as a global pool. origin + size is summed in int64, so it
 * cannot overflow.
 */
static inline void helia_pool_window(int32_t origin, int32_t size, int32_t extent, int32_t *begin, int32_t *end)
{
    const int32_t first = (origin < 0) ? 0 : origin;
    const int64_t past = (int64_t)origin + size;
    const int32_t last = (int32_t)((past < extent) ? past : extent);
    *begin = first;
    *end = (last < first) ? first : last;
}

#endif /* HELIA_PORTABLE_POOL_WINDOW_H */
