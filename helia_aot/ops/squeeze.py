# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE: row-major layout is unchanged, so the output aliases the input (no code, no copy)."""

from __future__ import annotations

from helia_aot.ops.base import Axis, register
from helia_aot.ops.shared.alias import AXIS_VARIANTS, AliasLowering


@register
class Squeeze(AliasLowering):
    op_types = ("SQUEEZE",)
    options_table = "SqueezeOptions"
    axes = (Axis("option squeeze_dims"),)
    variants = AXIS_VARIANTS
