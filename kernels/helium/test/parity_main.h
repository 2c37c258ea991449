/* SPDX-License-Identifier: Apache-2.0 */
/* The parity firmware's driver, shared by each kernel's *_parity.c of both families (kernels/helium,
 * kernels/dsp), which defines before including it:
 *   call_case                        one call's arguments;
 *   draw_case(call_case *)           a random call inside the kernel's contract (fills the buffers);
 *   output_bytes(const call_case *)  bytes the call writes;
 *   run(const call_case *, int ours, int8_t *out)  the reference (ours 0) or our kernel (ours 1), writing
 *                                    at out + GUARD;
 *   describe(const call_case *, int32_t call, size_t first_difference)   a mismatch's arguments;
 *   break_contract(call_case *, int32_t which)  for which < REFUSAL_CASES, one argument outside it;
 *   expected[], actual[]             output buffers with 2 * GUARD spare bytes.
 * Runs HELIA_PARITY_CALLS random calls, comparing the outputs byte for byte with guard bytes around them,
 * then checks each refusal writes nothing. Prints "<family> parity: calls N outputs M mismatches K
 * refusal_failures R" through semihosting; exits 0 only with K == R == 0. */

#ifndef HELIA_HELIUM_TEST_PARITY_MAIN_H
#define HELIA_HELIUM_TEST_PARITY_MAIN_H

/* The family named in the result line (tools/bench_lib reads it); a DSP firmware defines "dsp". */
#ifndef HELIA_TEST_FAMILY
#define HELIA_TEST_FAMILY "helium"
#endif

#include <stdio.h>
#include <string.h>

static int32_t check_refusals(void)
{
    call_case c;
    int32_t failures = 0;
    for (int32_t which = 0; which < REFUSAL_CASES; ++which)
    {
        draw_case(&c);
        break_contract(&c, which);
        memset(actual, GUARD_BYTE, sizeof(actual));
        if (run(&c, 1, actual) != ARM_CMSIS_NN_ARG_ERROR)
        {
            printf("refusal %ld: the kernel accepted arguments outside its contract\n", (long)which);
            ++failures;
        }
        for (size_t i = 0; i < sizeof(actual); ++i)
        {
            if (actual[i] != (int8_t)GUARD_BYTE)
            {
                printf("refusal %ld: the kernel wrote output anyway\n", (long)which);
                ++failures;
                break;
            }
        }
    }
    return failures;
}

int main(void)
{
    rng_state = HELIA_PARITY_SEED;
    int32_t mismatches = 0;
    int32_t calls = 0;
    int64_t outputs = 0;
    call_case c;
    for (int32_t call = 0; call < HELIA_PARITY_CALLS; ++call)
    {
        draw_case(&c);
        const size_t bytes = output_bytes(&c) + 2 * GUARD;
        memset(expected, GUARD_BYTE, bytes);
        memset(actual, GUARD_BYTE, bytes);
        const arm_cmsis_nn_status want = run(&c, 0, expected);
        const arm_cmsis_nn_status got = run(&c, 1, actual);
        ++calls;
        outputs += (int64_t)bytes - 2 * GUARD;
        if (want != ARM_CMSIS_NN_SUCCESS || got != ARM_CMSIS_NN_SUCCESS || memcmp(expected, actual, bytes) != 0)
        {
            size_t first = 0;
            while (first < bytes && expected[first] == actual[first])
            {
                ++first;
            }
            if (mismatches < 10)
            {
                describe(&c, call, first);
                if (first < bytes)
                {
                    printf("  expected %d got %d (status %d / %d)\n", expected[first], actual[first], (int)want,
                           (int)got);
                }
            }
            ++mismatches;
        }
    }
    const int32_t refusal_failures = check_refusals();
    printf(HELIA_TEST_FAMILY " parity: calls %ld outputs %lld mismatches %ld refusal_failures %ld\n", (long)calls,
           (long long)outputs, (long)mismatches, (long)refusal_failures);
    return mismatches == 0 && refusal_failures == 0 ? 0 : 1;
}

#endif /* HELIA_HELIUM_TEST_PARITY_MAIN_H */
