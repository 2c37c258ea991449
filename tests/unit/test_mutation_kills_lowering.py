# SPDX-License-Identifier: Apache-2.0
"""Operator ids (helia_aot/lowering/operator_ids.py) and derived values (helia_aot/lowering/lower.py):
cases mutants showed untested (tests/MUTATION.md, 2026-12-02): operators writing tensors of one name are
told apart by #1, #2 in execution order; a derived parameter or constant past its C type is refused."""

from __future__ import annotations

from helia_aot.frontend import litert
from helia_aot.lowering.operator_ids import operator_ids
from tests.modelgen import ModelBuilder


def test_operators_writing_one_name_are_numbered_in_order():
    b = ModelBuilder()
    x = b.input("x", (1, 4), "int8", 0.5, 0)
    first = b.tensor("t", (1, 4), "int8", 0.5, 0)
    second = b.tensor("t", (1, 4), "int8", 0.5, 0)
    b.op("RELU", [x], [first])
    b.op("RELU", [first], [second])
    b.output(second)
    graph = litert.load(b.build(), "m", 0)
    assert [i for i, _ in operator_ids(graph)] == [f"{graph.name}:t#1", f"{graph.name}:t#2"]



# ---- derived values past their C type (lower._check_constants) ----
# No model tried reaches these refusals (the operators' own window and shift checks refuse first), so
# the check is driven with a real operator's context and lowering, its values pushed to the edges.

def _relu_step():
    from helia_aot.config import options as options_mod
    from helia_aot.lowering import lower as lowering

    b = ModelBuilder()
    x = b.input("x", (1, 4), "int8", 0.5, 0)
    y = b.tensor("y", (1, 4), "int8", 0.5, 0)
    b.op("RELU", [x], [y])
    b.output(y)
    options = options_mod.resolve(None, target="host")
    graph = lowering.prepare(litert.load(b.build(), "m", 0), options, "m")
    step = lowering.lower(graph, options)[0]
    return lowering, lowering._operator_context(graph, step.op, step.op_id, options, step.settings), step


def test_a_derived_parameter_must_fit_int32():
    import dataclasses

    import pytest

    from helia_aot.errors import UnsupportedModelError

    lowering, ctx, step = _relu_step()
    for fits in (2**31 - 1, -2**31):
        lowering._check_constants(ctx, dataclasses.replace(step.lowering, params={"pad": [0, fits]}))
    for past in (2**31, -2**31 - 1):
        with pytest.raises(UnsupportedModelError) as refused:
            lowering._check_constants(ctx, dataclasses.replace(step.lowering, params={"pad": [0, past]}))
        assert refused.value.message == (f"{ctx.where()}: derived parameter pad reaches {past}, outside int32 "
                                         "(the kernels take int32)")
        assert refused.value.hint == ("Check the operator's options and shapes (they are far outside what an "
                                      "exporter writes)")


def test_a_derived_constant_must_fit_its_c_type():
    import dataclasses

    import numpy as np
    import pytest

    from helia_aot.errors import UnsupportedModelError
    from helia_aot.ops.base import ConstArray

    lowering, ctx, step = _relu_step()
    fits = ConstArray("lut", "int8_t", np.array([-128, 127]), "table")
    lowering._check_constants(ctx, dataclasses.replace(step.lowering, constants=[fits]))
    for values, bad in (([-129, 0], -129), ([0, 128], 128)):
        past = ConstArray("lut", "int8_t", np.array(values), "table")
        with pytest.raises(UnsupportedModelError) as refused:
            lowering._check_constants(ctx, dataclasses.replace(step.lowering, constants=[past]))
        assert refused.value.message == (f"{ctx.where()}: derived constant lut (table) reaches {bad}, outside "
                                         "int8_t; the kernel's arithmetic would overflow")
        assert refused.value.hint == ("Check the model's bias and quantization values (they are far outside "
                                      "what an exporter writes)")
