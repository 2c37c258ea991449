# SPDX-License-Identifier: Apache-2.0
"""ARG_MIN: int8 with int32 indices on arm_argmin_s8, every other form in inline C (see arg_common)."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.arg_common import ArgLowering, arg_variants


@register
class ArgMin(ArgLowering):
    op_types = ("ARG_MIN",)
    options_table = "ArgMinOptions"
    kind = "min"
    variants = arg_variants("min")
