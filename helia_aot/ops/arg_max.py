# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX: int8 with int32 indices on arm_argmax_s8, every other form in inline C (see shared.arg_max_min)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.arg_max_min import ArgLowering, arg_variants


@register
class ArgMax(ArgLowering):
    op_types = ("ARG_MAX",)
    options_table = "ArgMaxOptions"
    kind = "max"
    variants = arg_variants("max")
