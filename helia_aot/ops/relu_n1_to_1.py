# SPDX-License-Identifier: Apache-2.0
"""RELU_N1_TO_1: int8 on arm_relu_generic_s8 (LiteRT's quantized ReluX: requantize by input / output scale,
clamp to the quantized [-1, 1]); float32 inline C, LiteRT's Relu1 (arm_nn_activation_f32 has no such
mode). LiteRT's kernel has no int16 path ("Only float32, uint8, int8 supported")."""

from __future__ import annotations

from helia_aot.ops.base import register
from helia_aot.ops.shared.clamp import BoundedReluLowering


@register
class ReluN1To1(BoundedReluLowering):
    op_types = ("RELU_N1_TO_1",)
    options_table = None
    clamp_bounds = (-1.0, 1.0)
