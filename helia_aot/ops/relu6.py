# SPDX-License-Identifier: Apache-2.0
"""RELU6, int8: arm_clamp_s8 when scales match, else arm_requantize_s8_s8 then an in-place clamp."""

from __future__ import annotations

from .base import register
from .common import ClampLowering


@register
class Relu6(ClampLowering):
    op_types = ("RELU6",)
    activation = "RELU6"
