# SPDX-License-Identifier: Apache-2.0
"""Public API of the simulator layer: run Cortex-M firmware as Bazel tests."""

load("//toolchains/simulators/private:cortex_m_test.bzl", _cortex_m_test = "cortex_m_test", _firmware_transition = "firmware_transition")

cortex_m_test = _cortex_m_test
firmware_transition = _firmware_transition
