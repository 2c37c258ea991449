# SPDX-License-Identifier: Apache-2.0
"""Runs generated models in LiteRT's reference-kernel interpreter."""

from __future__ import annotations

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def make_interpreter(data: bytes, preserve_all_tensors: bool = False) -> Interpreter:
    interp = Interpreter(model_content=bytes(data),
                         experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                         experimental_preserve_all_tensors=preserve_all_tensors)
    interp.allocate_tensors()
    return interp


def run_reference(data: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """One invocation with the reference kernels; returns copies of every output."""
    interp = make_interpreter(data)
    details = interp.get_input_details()
    if len(details) != len(inputs):
        raise ValueError(f"model has {len(details)} inputs, {len(inputs)} given")
    for detail, value in zip(details, inputs):
        interp.set_tensor(detail["index"], np.asarray(value, dtype=detail["dtype"]))
    interp.invoke()
    return [interp.get_tensor(d["index"]).copy() for d in interp.get_output_details()]


def random_inputs(data: bytes, generator: np.random.Generator,
                  integer_ranges: dict[str, tuple[int, int]] | None = None,
                  float_ranges: dict[str, tuple[float, float]] | None = None) -> list[np.ndarray]:
    """Random values for each input: integers over their whole range (or the inclusive interval
    `integer_ranges` gives by input name: indices, shapes, codes), bools both ways, floats uniform in
    [-1, 1) (or the interval `float_ranges` gives by input name)."""
    out = []
    for detail in make_interpreter(data).get_input_details():
        dtype = np.dtype(detail["dtype"])
        shape = tuple(detail["shape"])
        if integer_ranges and detail["name"] in integer_ranges:
            lo, hi = integer_ranges[detail["name"]]
            out.append(generator.integers(lo, hi, size=shape, endpoint=True).astype(dtype))
        elif dtype.kind == "b":
            out.append(generator.integers(0, 1, size=shape, endpoint=True).astype(dtype))
        elif dtype.kind in "iu":
            info = np.iinfo(dtype)
            out.append(generator.integers(info.min, info.max, size=shape,
                                          endpoint=True).astype(dtype))
        else:
            lo, hi = (float_ranges or {}).get(detail["name"], (-1.0, 1.0))
            out.append(generator.uniform(lo, hi, size=shape).astype(dtype))
    return out
