/* SPDX-License-Identifier: Apache-2.0 */
/* The instruction benches' shared part (both families: HELIA_TEST_FAMILY, default "helium", names them in
 * the result lines): one warm call measured with the instruction counter, and one
 * layer's entries measured in turn (entry 0 is ours; every other entry's output must equal ours). */

#ifndef HELIA_HELIUM_TEST_BENCH_SUPPORT_H
#define HELIA_HELIUM_TEST_BENCH_SUPPORT_H

#ifndef HELIA_TEST_FAMILY
#define HELIA_TEST_FAMILY "helium"
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arm_nnfunctions.h"
#include "instruction_counter.h"

/* Calls entry `entry` of a bench on its arguments, writing `out`. */
typedef arm_cmsis_nn_status (*bench_call)(int entry, const void *args, int8_t *out);

/* Instructions of one call after a warm-up call, less the counter's own cost. */
static uint64_t measure(bench_call call, int entry, const void *args, int8_t *out, uint64_t overhead, int *ok)
{
    *ok = call(entry, args, out) == ARM_CMSIS_NN_SUCCESS;
    helia_counter_start();
    const arm_cmsis_nn_status status = call(entry, args, out);
    const uint64_t instructions = helia_counter_instructions();
    *ok = *ok && status == ARM_CMSIS_NN_SUCCESS;
    return instructions > overhead ? instructions - overhead : 0;
}

/* Measures entries 0 .. count - 1 on one layer and prints a line each: "<family> bench: layer NAME entry
 * ENTRY instructions N scratch BYTES same_output 0|1". Returns the number of failed or differing calls. */
static int bench_layer(const char *layer, bench_call call, const void *args, const char *const *names,
                       const int32_t *scratch_bytes, int count, size_t bytes, int8_t *ours, int8_t *theirs,
                       uint64_t overhead)
{
    int failures = 0;
    for (int e = 0; e < count; ++e)
    {
        int ok = 1;
        int8_t *out = e == 0 ? ours : theirs;
        memset(out, 0, bytes);
        const uint64_t instructions = measure(call, e, args, out, overhead, &ok);
        const int same = e == 0 || memcmp(ours, theirs, bytes) == 0;
        failures += !ok || !same;
        printf(HELIA_TEST_FAMILY " bench: layer %s entry %s instructions %llu scratch %ld same_output %d\n", layer, names[e],
               (unsigned long long)instructions, (long)scratch_bytes[e], ok && same);
    }
    return failures;
}

#endif /* HELIA_HELIUM_TEST_BENCH_SUPPORT_H */
