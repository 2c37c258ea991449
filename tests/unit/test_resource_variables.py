# SPDX-License-Identifier: Apache-2.0
"""Resource variables: VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE lowered to a variable tensor in
the persistent arena, CALL_ONCE's initialisation evaluated at conversion (constants, and values folded from
constants)."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.frontend import litert, resources
from tests.modelgen import ModelBuilder
from tests.modelgen import stateful

from .helpers import function_body


@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_accumulator_lowers_to_a_persistent_variable(tmp_path, dtype):
    result = helia_aot.convert(stateful.accumulator(dtype), tmp_path / "m", prefix="m", target="corstone300")
    ops = [(o["op_type"], o["variant"]) for o in result.plan["operators"]]
    assert ops == [("READ_VARIABLE", "any"), ("ADD", dtype), ("ASSIGN_VARIABLE", "any")]
    nbytes = int(np.prod(stateful.SHAPE)) * np.dtype(dtype).itemsize
    assert result.plan["memory"]["persistent_buffers"] == [
        {"name": result.plan["memory"]["persistent_buffers"][0]["name"], "tensor": "acc", "offset": 0,
         "bytes": nbytes, "initial": "data"}]
    source = (tmp_path / "m" / "src" / "m_model.c").read_text()
    constants = (tmp_path / "m" / "src" / "m_constants.c").read_text()
    # the read copies the variable out of the persistent arena, the assignment copies the sum back
    assert "(persistent + 0)" in function_body(source, 0).split(",")[1]
    assert function_body(source, 2).strip().startswith(f"memcpy(({'int8_t' if dtype == 'int8' else 'float'} *)"
                                                        "(persistent + 0)")
    # reset writes the value CALL_ONCE assigns
    assert "m_model_reset" in source and "_initial, " + str(nbytes) in source
    code = int(round(0.5 / stateful.INT8_SCALE)) + stateful.INT8_ZERO_POINT
    assert (f"{code}, {code}, {code}" if dtype == "int8" else "0.5f, 0.5f") in constants


def _init_model(init_op) -> bytes:
    b = ModelBuilder()
    init = b.subgraph("init")
    h0 = init.resource("h0")
    init.op("VAR_HANDLE", [], [h0], {"container": "", "shared_name": "v"})
    init_op(init, h0)
    b.op("CALL_ONCE", [], [], {"init_subgraph_index": init.index})
    x = b.input("x", [1, 4], "float32")
    h = b.resource("h")
    b.op("VAR_HANDLE", [], [h], {"container": "", "shared_name": "v"})
    r = b.tensor("r", [1, 4], "float32")
    b.op("READ_VARIABLE", [h], [r])
    y = b.tensor("y", [1, 4], "float32")
    b.op("ADD", [r, x], [y])
    b.op("ASSIGN_VARIABLE", [h, y], [])
    b.output(y)
    return b.build()


def _initial(data: bytes) -> np.ndarray:
    model = litert.parse(data, "m")
    (variable,) = [t for t in resources.resolve(model.graph(), model).tensors if t.is_variable]
    return variable.initial


def test_initialisation_computing_a_value_from_constants_converts(tmp_path):
    def computed(init, h0):
        a = init.const("a", np.full((1, 4), 1.5), "float32")
        s = init.tensor("s", [1, 4], "float32")
        init.op("SQUARED_DIFFERENCE", [a, init.const("k", np.arange(4).reshape(1, 4), "float32")], [s])
        d = init.tensor("d", [1, 4], "float32")
        init.op("DIV", [s, init.const("quarter", np.full((1, 4), 0.25), "float32")], [d])
        init.op("ASSIGN_VARIABLE", [h0, d], [])

    np.testing.assert_array_equal(_initial(_init_model(computed)), np.asarray([[9, 1, 1, 9]], np.float32))
    result = helia_aot.convert(_init_model(computed), tmp_path / "m")
    assert [b["initial"] for b in result.plan["memory"]["persistent_buffers"]] == ["data"]
    # the initialisation's operators are evaluated, not lowered
    assert [o["op_type"] for o in result.plan["operators"]] == ["READ_VARIABLE", "ADD", "ASSIGN_VARIABLE"]


def test_initialisation_with_an_operator_that_does_not_fold_is_refused(tmp_path):
    def concatenated(init, h0):
        a = init.const("a", np.ones((1, 2)), "float32")
        c = init.tensor("c", [1, 4], "float32")
        init.op("CONCATENATION", [a, a], [c], {"axis": 1})
        init.op("ASSIGN_VARIABLE", [h0, c], [])

    with pytest.raises(UnsupportedModelError, match=r"CALL_ONCE.*initialisation subgraph 'init' runs an operator "
                                                    r"helia_aot does not evaluate at conversion \(operator 1, "
                                                    r"CONCATENATION\).*computed from constants"):
        helia_aot.convert(_init_model(concatenated), tmp_path / "m")
    assert not (tmp_path / "m").exists()


def test_initialisation_with_a_form_that_does_not_fold_is_refused(tmp_path):
    def added(init, h0):  # ADD folds int32, int8, int16 and float32, not float16
        a = init.const("a", np.ones((1, 4)), "float16")
        s = init.tensor("s", [1, 4], "float16")
        init.op("ADD", [a, a], [s])
        init.op("ASSIGN_VARIABLE", [h0, s], [])

    with pytest.raises(UnsupportedModelError, match=r"runs an operator helia_aot does not fold for float16 "
                                                    r"\(operator 1, ADD\)"):
        helia_aot.convert(_init_model(added), tmp_path / "m")


def test_initialisation_reading_an_unassigned_variable_reads_its_reset_value():
    # TFLM reads a variable nothing has assigned as its reset buffer (LiteRT refuses the read): zeros here,
    # plus the constant the initialisation adds.
    def read(init, h0):
        r = init.tensor("r0", [1, 4], "float32")
        init.op("READ_VARIABLE", [h0], [r])
        s = init.tensor("s0", [1, 4], "float32")
        init.op("ADD", [r, init.const("k", np.arange(4).reshape(1, 4) + 0.5, "float32")], [s])
        init.op("ASSIGN_VARIABLE", [h0, s], [])

    np.testing.assert_array_equal(_initial(_init_model(read)), np.asarray([[0.5, 1.5, 2.5, 3.5]], np.float32))


def test_initialisation_reading_what_it_assigned_reads_that_value():
    def assign_then_read(init, h0):
        init.op("ASSIGN_VARIABLE", [h0, init.const("a", np.full((1, 4), 2.0), "float32")], [])
        r = init.tensor("r0", [1, 4], "float32")
        init.op("READ_VARIABLE", [h0], [r])
        s = init.tensor("s0", [1, 4], "float32")
        init.op("ADD", [r, init.const("k", np.full((1, 4), 0.25), "float32")], [s])
        init.op("ASSIGN_VARIABLE", [h0, s], [])

    np.testing.assert_array_equal(_initial(_init_model(assign_then_read)), np.full((1, 4), 2.25, np.float32))


def test_initialisation_reading_a_variable_in_another_size_is_refused(tmp_path):
    def other_size(init, h0):
        init.op("ASSIGN_VARIABLE", [h0, init.const("a", np.full((1, 4), 2.0), "float32")], [])
        init.op("READ_VARIABLE", [h0], [init.tensor("r0", [1, 2], "float32")])

    with pytest.raises(UnsupportedModelError, match=r"operator 2 \(READ_VARIABLE\) of subgraph 'init': reads resource "
                                                    r"variable 'v' as float32 \[1, 2\] after it was given float32 "
                                                    r"\[1, 4\] \('a'\) \(reference undefined: read_variable.cc"):
        helia_aot.convert(_init_model(other_size), tmp_path / "m")
    assert not (tmp_path / "m").exists()


def test_initialisation_of_constants_converts(tmp_path):
    def constant(init, h0):
        init.op("ASSIGN_VARIABLE", [h0, init.const("a", np.full((1, 4), 2.0), "float32")], [])

    result = helia_aot.convert(_init_model(constant), tmp_path / "m")
    assert [b["initial"] for b in result.plan["memory"]["persistent_buffers"]] == ["data"]


def test_variable_used_with_two_shapes_is_refused(tmp_path):
    def other_shape(init, h0):
        init.op("ASSIGN_VARIABLE", [h0, init.const("a", np.full((1, 5), 2.0), "float32")], [])

    with pytest.raises(UnsupportedModelError, match="resource variable 'v' is used as float32 \\[1, 5\\]"):
        helia_aot.convert(_init_model(other_shape), tmp_path / "m")


def test_two_variables_stay_apart(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [1, 4], "float32")
    outs = []
    for name in ("a", "b"):
        h = b.resource(f"h_{name}")
        b.op("VAR_HANDLE", [], [h], {"container": "", "shared_name": name})
        r = b.tensor(f"r_{name}", [1, 4], "float32")
        b.op("READ_VARIABLE", [h], [r])
        y = b.tensor(f"y_{name}", [1, 4], "float32")
        b.op("ADD", [r, x], [y])
        b.op("ASSIGN_VARIABLE", [h, y], [])
        outs.append(y)
    for y in outs:
        b.output(y)
    result = helia_aot.convert(b.build(), tmp_path / "m")
    buffers = result.plan["memory"]["persistent_buffers"]
    assert [(p["tensor"], p["initial"]) for p in buffers] == [("a", "zero"), ("b", "zero")]
    assert buffers[0]["offset"] + buffers[0]["bytes"] <= buffers[1]["offset"]
