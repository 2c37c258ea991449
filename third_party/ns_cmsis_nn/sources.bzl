# SPDX-License-Identifier: Apache-2.0
# Which files of an ns-cmsis-nn tree are compiled, stated once for every build of it: Bazel's overlay
# (ns_cmsis_nn.BUILD.bazel) loads these lists, and the tools that compile ns-cmsis-nn themselves
# (tools/bench_lib/kernels.py, hence tools/bench and tools/measure_kernel_costs.py, and
# tests/e2e/harness.py) read them as data with Python's ast. A BUILD file cannot read JSON, and a .bzl
# of plain literals needs no generator kept in step, so: only list literals here, no Starlark logic.
# The globs are relative to the tree's root; `**` matches any number of folders, as in Bazel's glob.

NS_CMSIS_NN_SOURCES = ["Source/**/*.c"]

# Bazel only: the sources' private headers (the Python tools compile in place, where they are found).
NS_CMSIS_NN_PRIVATE_HEADERS = ["Source/**/*.h"]

# The float16 kernels use float16_t, which exists only with ARM_NN_ENABLE_F16 (a compiler with a
# half-precision type): compiled only where a build turns that switch on for a core with FP16.
NS_CMSIS_NN_FLOAT16_SOURCES = ["Source/**/*_f16.c"]

# Never compiled: Ambiq's older *_fp16.c kernels. helia-aot calls none of them (its float16 entries
# are the *_f16.c ones), arm_fully_connected_fp16.c needs Arm's arm_fp16.h, and upstream's CMake lists
# at most one of them.
NS_CMSIS_NN_EXCLUDED_SOURCES = ["Source/**/*_fp16.c"]
