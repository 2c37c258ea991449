# SPDX-License-Identifier: Apache-2.0
"""Golden test data: reference outputs (LiteRT, TFLM) and the test harness files of a module."""
