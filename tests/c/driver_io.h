/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stdin readers shared by the C test programs: the kernel drivers (tests/kernels/c) read
 * whitespace-separated decimal integers, the e2e host harnesses (tests/e2e/c) raw bytes.
 *
 * The including file first defines DRIVER_NAME, the prefix of its error messages. A malformed record
 * ends the program with exit status 2 and one line on stderr, which the Python side reports. All
 * functions are static inline, so a program using only some of them still builds with -Wall -Wextra
 * -Werror.
 */

#ifndef HELIA_TESTS_DRIVER_IO_H
#define HELIA_TESTS_DRIVER_IO_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef DRIVER_NAME
    #error "define DRIVER_NAME, the prefix of the program's error messages, before including driver_io.h"
#endif

/* Ends the program: "<DRIVER_NAME>: <what>" on stderr, exit status 2. */
static inline void fail(const char *what)
{
    fprintf(stderr, "%s: %s\n", DRIVER_NAME, what);
    exit(2);
}

/* The next integer on stdin (decimal, optionally signed). */
static inline long long read_integer(void)
{
    long long v;
    if (scanf("%lld", &v) != 1)
    {
        fail("expected an integer");
    }
    return v;
}

/* The next integer on stdin, as int32 (record fields and most array elements). */
static inline int32_t read_int32(void)
{
    return (int32_t)read_integer();
}

/* The next integer on stdin, up to 2^64 - 1 (uint64 fields); a negative one wraps, as in strtoull. */
static inline unsigned long long read_unsigned(void)
{
    unsigned long long v;
    if (scanf("%llu", &v) != 1)
    {
        fail("expected an integer");
    }
    return v;
}

#ifdef ARM_NN_TYPES_H /* the kernel API's types (portable and ns-cmsis-nn share the guard) */
/* Four integers: n, h, w, c. */
static inline void read_dims(cmsis_nn_dims *d)
{
    d->n = read_int32();
    d->h = read_int32();
    d->w = read_int32();
    d->c = read_int32();
}
#endif

/* Exactly `bytes` bytes of stdin into dst: 0, or -1 on a short read. */
static inline int read_exact(void *dst, size_t bytes)
{
    return fread(dst, 1, bytes, stdin) == bytes ? 0 : -1;
}

#endif /* HELIA_TESTS_DRIVER_IO_H */
