# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS: row-major layout is unchanged, so the output aliases the input (no code, no copy)."""

from __future__ import annotations

from helia_aot.ops.base import Axis, register
from helia_aot.ops.shared.alias import AXIS_VARIANTS, AliasLowering


@register
class ExpandDims(AliasLowering):
    op_types = ("EXPAND_DIMS",)
    options_table = "ExpandDimsOptions"
    axes = (Axis("input 1", extra=1),)
    variants = AXIS_VARIANTS
