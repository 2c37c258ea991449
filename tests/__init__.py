# SPDX-License-Identifier: Apache-2.0
"""helia-aot test suites and their shared helpers (importable as tests.*)."""
