# SPDX-License-Identifier: Apache-2.0
"""LOGICAL_NOT on bool tensors in inline C (see shared.logical)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.logical import LogicalLowering, logical_variants


@register
class LogicalNot(LogicalLowering):
    op_types = ("LOGICAL_NOT",)
    options_table = "LogicalNotOptions"
    variants = logical_variants("LOGICAL_NOT")
