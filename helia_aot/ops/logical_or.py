# SPDX-License-Identifier: Apache-2.0
"""LOGICAL_OR on bool tensors in inline C (see shared.logical)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.logical import LogicalLowering, logical_variants


@register
class LogicalOr(LogicalLowering):
    op_types = ("LOGICAL_OR",)
    options_table = "LogicalOrOptions"
    variants = logical_variants("LOGICAL_OR")
