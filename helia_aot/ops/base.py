# SPDX-License-Identifier: Apache-2.0
"""The contract every operator module implements, and the registry they join."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..errors import UnsupportedModelError
from ..ir import Graph, Operator, Tensor
from ..targets import Target

_REGISTRY: dict[str, "OpLowering"] = {}


def register(cls):
    """Class decorator: one instance per operator type, keyed by its builtin name."""
    instance = cls()
    for op_type in cls.op_types:
        if op_type in _REGISTRY:
            raise RuntimeError(f"operator {op_type} registered twice")
        _REGISTRY[op_type] = instance
    return cls


def registry() -> dict[str, "OpLowering"]:
    return dict(_REGISTRY)


@dataclass
class ConstArray:
    """A constant the compiler derives at conversion time (multipliers, weight sums, LUTs)."""

    suffix: str
    ctype: str
    values: np.ndarray
    comment: str = ""


@dataclass
class Lowered:
    """What an operator lowers to; codegen and the planner follow it, never re-decide it."""

    template: str | None  # template file under ops/templates, None for aliases
    entry: str | None = None  # the ns-cmsis-nn function called (plan kernel.entry)
    candidates: list[str] | None = None  # entries whose rules matched, in precedence order
    calls: list[str] = field(default_factory=list)  # every library symbol the emitted code calls
    scratch_bytes: int = 0  # ctx->buf bytes in the scratch arena while this operator runs
    macs: int = 0
    params: dict[str, Any] = field(default_factory=dict)
    constants: list[ConstArray] = field(default_factory=list)
    alias: bool = False  # output 0 is the same bytes as input 0 (RESHAPE-like)
    requantization: str | None = None
    fixed: dict[str, Any] = field(default_factory=dict)
    weight_sums: str | None = None  # how MVE weight sums are supplied: "precomputed" / None


class OpContext:
    """What an operator module sees: its operator, the graph's tensors, target and knobs."""

    def __init__(self, graph: Graph, op: Operator, op_id: str, target: Target, optimization: dict):
        self.graph = graph
        self.op = op
        self.op_id = op_id
        self.target = target
        self.optimization = optimization

    @property
    def build(self) -> str:
        return self.target.kernel_build

    def options(self, key: str, default=None):
        return self.op.options.get(key, default)

    def inp(self, k: int) -> Tensor | None:
        if k >= len(self.op.inputs) or self.op.inputs[k] < 0:
            return None
        return self.graph.tensors[self.op.inputs[k]]

    def out(self, k: int = 0) -> Tensor:
        return self.graph.tensors[self.op.outputs[k]]

    def error(self, rule: str, tensor: Tensor | None = None, hint: str = "") -> UnsupportedModelError:
        where = f"operator {self.op_id} ({self.op.op_type}, index {self.op.index})"
        if tensor is not None:
            where += f", tensor '{tensor.name}'"
        return UnsupportedModelError(f"{where}: {rule}",
                                     hint or "Re-export the model so the operator meets this rule, or "
                                             "replace the operator")

    def kernel_knob(self) -> str:
        """Resolve optimization.kernel: auto picks specialized entries for every goal but size,
        where only depthwise keeps them (they need no scratch there)."""
        knob = self.optimization.get("kernel", "auto")
        if knob != "auto":
            return knob
        return "specialized"


class OpLowering:
    """Base class of an operator module. Subclasses set op_types and dtypes, and implement
    validate() and lower(); fold() when the operator can run at conversion time."""

    op_types: ClassVar[tuple[str, ...]] = ()
    # input dtype -> description; the error for a wrong dtype lists these.
    dtypes: ClassVar[tuple[str, ...]] = ("int8",)

    def check_dtypes(self, ctx: OpContext) -> None:
        data = ctx.inp(0)
        if data is None:
            raise ctx.error("has no data input")
        if data.dtype not in self.dtypes:
            raise ctx.error(f"input dtype {data.dtype} is not supported (supported: {', '.join(self.dtypes)})",
                            data, "Quantize the model to int8 (full-integer post-training quantization)")

    def validate(self, ctx: OpContext) -> None:
        self.check_dtypes(ctx)

    def lower(self, ctx: OpContext) -> Lowered:  # pragma: no cover - abstract
        raise NotImplementedError

    def infer_shapes(self, ctx: OpContext) -> list[tuple[int, ...]] | None:
        """Output shapes computed from inputs and options; None when the model's are trusted."""
        return None

    def fold(self, ctx: OpContext) -> list[np.ndarray] | None:
        """Compute outputs at conversion time when every input is constant; None if not foldable."""
        return None
