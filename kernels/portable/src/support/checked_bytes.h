/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private byte counts for *_get_buffer_size, 0 on overflow as in ns-cmsis-nn. */

#ifndef HELIA_PORTABLE_CHECKED_BYTES_H
#define HELIA_PORTABLE_CHECKED_BYTES_H

#include <stdint.h>

/* a * b * c * d (all non-negative), or 0 when that does not fit an int32. */
static inline int32_t helia_checked_bytes(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    const uint64_t limit = (uint64_t)INT32_MAX;
    const uint64_t factors[4] = {a, b, c, d};
    uint64_t product = 1;
    for (int i = 0; i < 4; ++i)
    {
        if (factors[i] != 0 && product > limit / factors[i])
        {
            return 0;
        }
        product *= factors[i];
    }
    return (int32_t)product;
}

#endif /* HELIA_PORTABLE_CHECKED_BYTES_H */
