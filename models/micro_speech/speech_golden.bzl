# SPDX-License-Identifier: Apache-2.0
"""speech_golden_test: the micro_speech pipeline against TensorFlow Lite Micro on the four clips."""

load("//toolchains/simulators:defs.bzl", "cortex_m_test")
load("//toolchains/simulators:sanitizers.bzl", "HOST_SANITIZERS")

_WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]

def speech_golden_test(name, simulator, deps, local_defines = [], **kwargs):
    """speech_golden.c with the pipeline, the clips and TFLM's features and scores for them.

    It passes when, for every clip, the classifier on TFLM's features, our 49 x 40 features and our
    scores all equal TFLM's and the label is the expected one. On QEMU the log also gives the
    instructions per frame and per clip.

    Args:
      name: the test's name.
      simulator: "qemu" (QEMU mps3-an547, Corstone-300, built for the Cortex-M55) or "host" (the host
        compiler, the test code under ASan and UBSan).
      deps: the pipeline library, the clips and the expected data (cc targets).
      local_defines: extra C defines for speech_golden.c.
      **kwargs: passed to the test rule (size, tags, timeout, ...).
    """
    if simulator == "host":
        native.cc_test(
            name = name,
            srcs = ["speech_golden.c"],
            copts = HOST_SANITIZERS + _WARNINGS,
            linkopts = HOST_SANITIZERS,
            local_defines = local_defines,
            target_compatible_with = ["@platforms//os:linux"],
            deps = deps,
            **kwargs
        )
    elif simulator == "qemu":
        native.cc_binary(
            name = name + "_firmware",
            srcs = ["speech_golden.c"],
            copts = _WARNINGS,
            local_defines = local_defines + ["SPEECH_COUNT_INSTRUCTIONS"],
            target_compatible_with = [Label("//toolchains/constraints:cortex_m55")],
            testonly = True,
            deps = deps + [Label("//toolchains/corstone300:runtime")],
        )
        cortex_m_test(
            name = name,
            firmware = ":" + name + "_firmware",
            expected_output = ["speech_golden: PASS: 4 clips"],
            **kwargs
        )
    else:
        fail("speech_golden_test {}: simulator must be qemu or host, not '{}'".format(name, simulator))
