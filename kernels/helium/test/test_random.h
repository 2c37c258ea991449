/* SPDX-License-Identifier: Apache-2.0 */
/* The Helium test firmware's random numbers: xorshift32, small, deterministic, good enough to spread
 * shapes and values. Each firmware seeds rng_state itself. */

#ifndef HELIA_HELIUM_TEST_RANDOM_H
#define HELIA_HELIUM_TEST_RANDOM_H

#include <stdint.h>

static uint32_t rng_state;

static inline uint32_t next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* Uniform in [lo, hi]. */
static inline int32_t between(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(next() % (uint32_t)(hi - lo + 1));
}

#endif /* HELIA_HELIUM_TEST_RANDOM_H */
