# SPDX-License-Identifier: Apache-2.0
"""The sanitizer flags of every host build of generated code and kernels in the pytest suites, in one
list: the e2e harness, the kernel builds, the fuzz campaign and every unit test that compiles a module.
It equals Bazel's HOST_SANITIZERS (toolchains/simulators/sanitizers.bzl), which
tests/unit/test_sanitizer_flags.py holds it to.

float-cast-overflow is not part of -fsanitize=undefined: without it a float converted to an integer it
does not fit (NaN, an infinity, a huge value) passes silently, and that conversion is undefined
behaviour all the same."""

SANITIZERS = [
    "-fsanitize=address,undefined,float-cast-overflow",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
]
