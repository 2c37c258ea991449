# SPDX-License-Identifier: Apache-2.0
"""Models with state kept across invocations: resource variables (VAR_HANDLE, READ_VARIABLE,
ASSIGN_VARIABLE, CALL_ONCE and its initialisation subgraph), as the TensorFlow converter writes a
tf.Variable a model updates. LiteRT's outputs depend on every earlier invoke of the interpreter."""

from __future__ import annotations

import numpy as np

from tests.modelgen.builder import ModelBuilder

SEED = 1107
# name -> dtype of the accumulator
NAMES = {"accumulator_int8": "int8", "accumulator_float32": "float32"}
SHAPE = (1, 6)
# int8: the sum of 20 inputs in [-1, 1) stays far from saturation only with a wide scale.
INT8_SCALE, INT8_ZERO_POINT = 0.25, 3


def accumulator(dtype: str, initial: float = 0.5) -> bytes:
    """acc = acc + x, out = acc: a resource variable `acc` CALL_ONCE initialises to `initial`,
    read, added to the input and assigned back every invoke."""
    b = ModelBuilder(f"accumulator {dtype}")
    q = dict(scale=INT8_SCALE, zero_point=INT8_ZERO_POINT) if dtype == "int8" else {}
    init = b.subgraph("init")
    handle0 = init.resource("acc_handle_init")
    init.op("VAR_HANDLE", [], [handle0], {"container": "", "shared_name": "acc"})
    start = np.full(SHAPE, initial)
    if dtype == "int8":
        start = np.round(start / INT8_SCALE) + INT8_ZERO_POINT
    init.op("ASSIGN_VARIABLE", [handle0, init.const("acc_initial", start, dtype, **q)], [])
    b.op("CALL_ONCE", [], [], {"init_subgraph_index": init.index})
    x = b.input("x", SHAPE, dtype, **q)
    handle = b.resource("acc_handle")
    b.op("VAR_HANDLE", [], [handle], {"container": "", "shared_name": "acc"})
    value = b.tensor("acc_value", SHAPE, dtype, **q)
    b.op("READ_VARIABLE", [handle], [value])
    total = b.tensor("acc_next", SHAPE, dtype, **q)
    b.op("ADD", [value, x], [total])
    b.op("ASSIGN_VARIABLE", [handle, total], [])
    b.output(total)
    return b.build()


def build(name: str) -> bytes:
    return accumulator(NAMES[name])
