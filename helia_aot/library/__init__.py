# SPDX-License-Identifier: Apache-2.0
"""Kernel libraries: what each provides, ns-cmsis-nn's scratch sizes, and the measured cost of its calls."""
