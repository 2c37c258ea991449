# SPDX-License-Identifier: Apache-2.0
"""The sanitizers of every host run of generated code under Bazel (golden tests with simulator = "host").

float-cast-overflow is not part of -fsanitize=undefined: without it a float converted to an integer it
does not fit passes silently. The pytest harnesses use the same set (tests/sanitizers.py, held to this one by a test)."""

HOST_SANITIZERS = [
    "-fsanitize=address,undefined,float-cast-overflow",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
]
