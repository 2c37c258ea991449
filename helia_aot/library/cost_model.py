# SPDX-License-Identifier: Apache-2.0
"""Instruction cost of a kernel call, from tables measured on QEMU (-icount shift=0).

One table per kernel library, build flavour and core, under helia_aot/library/cost_tables, written by
tools/measure_kernel_costs (which records its command and date in the file). A table holds every
measured call and, per entry, a linear model fitted to them:

    instructions = sum(coefficient[f] * feature[f])

over a few features of the call's shape (MACs, output elements, ...), which each entry's cost kind
names (helia_aot/library/cost_kinds.py, declared by the operator variants that call it). The model's
largest relative error on its own measurements is stored beside it; tests/unit/test_cost_model.py
checks the committed coefficients against the committed measurements. A call whose exact shape was
measured (the MLPerf Tiny layers are) is estimated by its measurement, any other by the model.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from helia_aot import ops
from helia_aot.library.cost_kinds import CostKind

DATA_DIR = Path(__file__).resolve().parent / "cost_tables"

@functools.lru_cache(maxsize=None)
def entry_kinds() -> dict[str, CostKind]:
    """Entry -> its cost kind, as the operator variants declare them (Variant.cost_kinds). Only these
    entries are measured and estimated."""
    kinds: dict[str, CostKind] = {}
    for op_type, variant in ops.catalog():
        for entry, kind in variant.cost_kinds:
            if kinds.setdefault(entry, kind) is not kind:
                raise AssertionError(f"{op_type} {variant.name}: entry {entry} declared with cost kinds "
                                     f"{kinds[entry].name} and {kind.name}")
    return kinds


def kind_of(entry: str) -> CostKind | None:
    return entry_kinds().get(entry)


def features(entry: str, input_dims, filter_dims, output_dims, stride=None, padding=None) -> dict[str, int]:
    """The cost features of one call (helia_aot/library/cost_kinds.py says what the dims are). stride
    and padding (w, h), where a kind's cost depends on them; when not given they are inferred from the
    dims (TFLite SAME or VALID)."""
    return entry_kinds()[entry].compute(input_dims, filter_dims, output_dims, stride, padding)


def fit(rows: list[tuple[dict[str, int], int]], names: tuple[str, ...]) -> list[float]:
    """Least-squares coefficients minimising the relative error of instructions over the rows
    (each row divided by its measured count), rounded to 4 decimals."""
    a = np.array([[row[name] for name in names] for row, _ in rows], dtype=np.float64)
    y = np.array([count for _, count in rows], dtype=np.float64)
    weights = 1.0 / y
    solution, *_ = np.linalg.lstsq(a * weights[:, None], y * weights, rcond=None)
    return [round(float(c), 4) for c in solution]


def predict(coefficients: dict[str, float], feats: dict[str, int]) -> float:
    return sum(c * feats[name] for name, c in coefficients.items())


@dataclass(frozen=True)
class CostTable:
    """One library/build/core's measured calls and fitted models."""

    path: Path
    library: str
    build: str
    core: str
    models: dict  # entry -> {"coefficients": {feature: value}, "max_relative_error": float}
    measured: dict  # (entry, input dims, filter dims, output dims) -> instructions
    command: str | None = None  # what made the table (recorded in the plan's report)
    date: str | None = None

    @property
    def name(self) -> str:
        return self.path.stem

    def has(self, entry: str) -> bool:
        return entry in self.models

    def model_estimate(self, entry: str, input_dims, filter_dims, output_dims, stride=None, padding=None) -> int | None:
        """The entry's fitted model alone, even for a measured shape: two estimates compared with each other
        (a layer and its bands) then share the model's error instead of mixing it with a measurement."""
        model = self.models.get(entry)
        if model is None:
            return None
        value = predict(model["coefficients"], features(entry, input_dims, filter_dims, output_dims, stride, padding))
        return max(int(round(value)), 1)

    def measurement(self, entry: str, input_dims, filter_dims, output_dims) -> int | None:
        """The instructions measured for exactly this call's shape, None when it was not measured."""
        key = (entry, tuple(map(int, input_dims)), tuple(map(int, filter_dims)), tuple(map(int, output_dims)))
        return self.measured.get(key)

    def estimate(self, entry: str, input_dims, filter_dims, output_dims, stride=None, padding=None) -> int | None:
        """Estimated instructions of one call, None when the entry was not measured here. stride and
        padding (w, h) refine the estimate where the entry's cost depends on them."""
        model = self.models.get(entry)
        if model is None:
            return None
        key = (entry, tuple(map(int, input_dims)), tuple(map(int, filter_dims)), tuple(map(int, output_dims)))
        if key in self.measured:
            return self.measured[key]
        value = predict(model["coefficients"], features(entry, input_dims, filter_dims, output_dims, stride, padding))
        return max(int(round(value)), 1)


def read_table(path: Path) -> CostTable:
    data = json.loads(path.read_text(encoding="utf-8"))
    # Stride and padding are implied by the dims for the measured shapes (one measurement each).
    measured = {(m["entry"], tuple(m["input_dims"]), tuple(m["filter_dims"]), tuple(m["output_dims"])):
                m["instructions"] for m in data["measurements"]}
    return CostTable(path, data["library"], data["build"], data["core"], data["entries"], measured,
                     data.get("command"), data.get("date"))


@functools.lru_cache(maxsize=None)
def tables() -> tuple[CostTable, ...]:
    return tuple(read_table(p) for p in sorted(DATA_DIR.glob("*.json")))


# The cores whose tables stand in for a core with none of its own, nearest first: the same architecture
# and pipeline family before the others (instruction counts differ between cores, their ranking of one
# library's entries much less). The generic host takes the Cortex-M4's, then the M55's.
STAND_INS = {
    "generic": ("cortex-m4", "cortex-m55"),
    "cortex-m0": ("cortex-m3",),
    "cortex-m0plus": ("cortex-m3",),
    "cortex-m3": ("cortex-m33", "cortex-m4"),
    "cortex-m4": ("cortex-m7", "cortex-m33"),
    "cortex-m7": ("cortex-m4", "cortex-m33"),
    "cortex-m33": ("cortex-m4", "cortex-m7", "cortex-m3"),
    "cortex-m55": ("cortex-m85",),
    "cortex-m85": ("cortex-m55",),
}


def table_for(library: str, build: str, cpu: str) -> CostTable | None:
    """The table measured for this library, build and core; else the nearest core's (STAND_INS) of the
    library and build; for a core STAND_INS does not know, any core's; else None. The report names the
    table (kernel_choice.cost_table), so a stand-in shows."""
    same = [t for t in tables() if t.library == library and t.build == build]
    for core in (cpu, *STAND_INS.get(cpu, ())):
        for t in same:
            if t.core == core:
                return t
    if cpu in STAND_INS:
        return None
    return same[0] if same else None
