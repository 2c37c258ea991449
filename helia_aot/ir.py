# SPDX-License-Identifier: Apache-2.0
"""Intermediate representation: tensors, quantization and operators (no file format here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Element size in bytes of every dtype the IR can carry. Names are numpy-style strings so
# the int16/FP16/FP32 paths reuse the same IR unchanged.
DTYPE_BYTES = {
    "int8": 1,
    "uint8": 1,
    "int16": 2,
    "int32": 4,
    "int64": 8,
    "float16": 2,
    "float32": 4,
    "bool": 1,
}

C_TYPES = {
    "int8": "int8_t",
    "uint8": "uint8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "float32": "float",
    # ns-cmsis-nn's half type (arm_nn_math_types_flt.h, declared with ARM_NN_ENABLE_F16).
    "float16": "float16_t",
    "bool": "uint8_t",
}


@dataclass(frozen=True)
class Quantization:
    """Affine quantization: real = scale * (q - zero_point), per tensor or per channel on ``axis``."""

    scales: tuple[float, ...]
    zero_points: tuple[int, ...]
    axis: int = 0

    @property
    def per_channel(self) -> bool:
        return len(self.scales) > 1

    @property
    def scale(self) -> float:
        return self.scales[0]

    @property
    def zero_point(self) -> int:
        return self.zero_points[0]


@dataclass
class Tensor:
    index: int
    name: str
    shape: tuple[int, ...]
    dtype: str
    quant: Quantization | None = None
    data: np.ndarray | None = None  # set for constants
    is_variable: bool = False

    @property
    def is_constant(self) -> bool:
        return self.data is not None

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= int(d)
        return n

    @property
    def nbytes(self) -> int:
        return self.num_elements * DTYPE_BYTES[self.dtype]


@dataclass
class Operator:
    index: int  # position in the source subgraph's operator list
    op_type: str  # builtin operator name, e.g. "CONV_2D"
    inputs: list[int]  # tensor indices, -1 for an omitted optional input
    outputs: list[int]
    options: dict[str, Any] = field(default_factory=dict)
    version: int = 1


@dataclass
class Graph:
    """One subgraph: tensors, operators in execution order, graph inputs and outputs."""

    name: str
    subgraph_index: int
    tensors: list[Tensor]
    operators: list[Operator]
    inputs: list[int]
    outputs: list[int]
    description: str = ""

    def tensor(self, index: int) -> Tensor:
        return self.tensors[index]

    def producers(self) -> dict[int, Operator]:
        return {t: op for op in self.operators for t in op.outputs}

    def consumers(self) -> dict[int, list[Operator]]:
        result: dict[int, list[Operator]] = {}
        for op in self.operators:
            for t in op.inputs:
                if t >= 0:
                    result.setdefault(t, []).append(op)
        return result
