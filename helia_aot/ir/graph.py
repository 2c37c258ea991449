# SPDX-License-Identifier: Apache-2.0
"""Intermediate representation: tensors, quantization and operators (no file format here)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from helia_aot.ir.dtypes import DTYPE_BYTES

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
    """A tensor as the model declares it. ``dtype`` is a DTYPE_BYTES name, another LiteRT type name
    in lower case, or "unknown(<code>)" for a type code the schema does not define; the verifier
    refuses the last two before any later stage reads them."""

    index: int
    name: str
    shape: tuple[int, ...]
    dtype: str
    quant: Quantization | None = None
    data: np.ndarray | None = None  # set for constants
    is_variable: bool = False
    buffer: int = 0  # the model's buffer index (0: the empty sentinel, no data)
    buffer_bytes: int | None = None  # bytes that buffer holds, None when it holds none
    # A variable tensor's initial value when it has one (a resource variable its CALL_ONCE
    # initialisation assigns); None: LiteRT's reset value (int8 the zero point, else zeros).
    initial: np.ndarray | None = None

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

    @property
    def reset_code(self) -> int:
        """The code every element of a variable holds before anything assigns it: LiteRT and TFLM reset an int8
        variable to its zero point (real 0), every other type to zero bytes."""
        return self.quant.zero_point if self.dtype == "int8" and self.quant is not None else 0


class LazyOptions(Mapping):
    """A custom operator's attributes, decoded from its stored bytes on first use: a model may carry
    custom options that would take hours to expand, and only an operator that lowers needs them read.
    `decode` returns (the attribute map, why the bytes are not one or None); it runs at most once."""

    def __init__(self, decode: Callable[[], tuple[dict[str, Any], str | None]]):
        self._decode: Callable[[], tuple[dict[str, Any], str | None]] | None = decode
        self._value: dict[str, Any] = {}
        self._error: str | None = None

    @property
    def decoded(self) -> bool:
        return self._decode is None

    def _load(self) -> dict[str, Any]:
        if self._decode is not None:
            self._value, self._error = self._decode()
            self._decode = None
        return self._value

    @property
    def error(self) -> str | None:
        self._load()
        return self._error

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return repr(self._value) if self.decoded else "LazyOptions(<not decoded>)"


@dataclass
class Operator:
    index: int  # position in the source subgraph's operator list
    op_type: str  # builtin operator name, e.g. "CONV_2D"
    inputs: list[int]  # tensor indices, -1 for an omitted optional input
    outputs: list[int]
    options: dict[str, Any] = field(default_factory=dict)
    version: int = 1
    opcode_index: int = 0  # into the model's operator codes
    options_table: str | None = None  # the schema's options table name (e.g. "Conv2DOptions"); None: absent
    intermediates: list[int] = field(default_factory=list)  # tensor indices (LSTM-style internals)
    # A custom operator ("CUSTOM:<code>") keeps its custom options as stored; `options` is a LazyOptions
    # that decodes them, on first use, from the FlexBuffer map TFLM's kernels read (keys as they spell
    # them); `options_table` is None.
    custom_options: bytes | None = None

    @property
    def custom_options_error(self) -> str | None:
        """Why the custom options are not a FlexBuffer map within the decoding limits (None: they are,
        or there are none). Reading it decodes them: the verifier asks only for an operator a module
        lowers (an unknown one is refused by name without decoding)."""
        return self.options.error if isinstance(self.options, LazyOptions) else None


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
    # Sizes of the model-wide tables indices point into, for the verifier's range checks.
    buffer_count: int = 0
    operator_code_count: int = 0
    subgraph_count: int = 1
    # What helia_aot.lowering.rewrites changed (plan.json "rewrites"), set by lowering.prepare.
    rewrites: list[dict[str, Any]] = field(default_factory=list)

    def tensor(self, index: int) -> Tensor:
        return self.tensors[index]

    def producers(self) -> dict[int, Operator]:
        return {t: op for op in self.operators for t in op.outputs}

