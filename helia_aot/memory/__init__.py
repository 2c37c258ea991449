# SPDX-License-Identifier: Apache-2.0
"""Memory: the arena planner, placement of tensors and constants, and constant streaming."""
