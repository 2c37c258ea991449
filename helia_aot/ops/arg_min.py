# SPDX-License-Identifier: Apache-2.0
"""ARG_MIN: int8 with int32 indices on arm_argmin_s8, every other form in inline C (see shared.arg_max_min)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.arg_max_min import ArgLowering, arg_variants


@register
class ArgMin(ArgLowering):
    op_types = ("ARG_MIN",)
    options_table = "ArgMinOptions"
    kind = "min"
    variants = arg_variants("min")
