# SPDX-License-Identifier: Apache-2.0
"""The operator catalog against the single-operator cases: every precision variant an operator
declares is the one some case's model selects, and every operand a variant declares is named (its
role appears in refusals and in `helia-aot operators`). A variant whose dtypes, rules or name drift
from what its cases build is then caught here, before any C is compiled."""

from __future__ import annotations

import pytest

from helia_aot.lowering import lower as lowering, verifier
from helia_aot import ops
from helia_aot.config import options as options_mod
from helia_aot.frontend import resources
from helia_aot.frontend import litert
from tests.modelgen.cases import all_case_paths, build_case_model, load_case

# Variants no single-operator case can select, and where they are tested instead.
NOT_IN_CASES = {
    # Resource variables exist only as a group (handle, read, assign, initialisation subgraph).
    ("VAR_HANDLE", "resource"): "tests/unit/test_resource_variables.py",
    ("READ_VARIABLE", "any"): "tests/unit/test_resource_variables.py",
    ("ASSIGN_VARIABLE", "any"): "tests/unit/test_resource_variables.py",
    ("CALL_ONCE", "init"): "tests/unit/test_resource_variables.py",
    # LiteRT's SVDF keeps int16 state; the int8-state form is TFLM's, checked against a Python model.
    ("SVDF", "int8_state8"): "tests/unit/test_ops_svdf.py",
    # A WHERE of a constant condition is folded at conversion; a run-time one makes LiteRT resize its output, so it
    # is matched through the interface's row padding (its golden test there, and tests/e2e/differential_ops'
    # WHERE walk).
    ("WHERE", "coordinates"): "tests/unit/test_ops_reduce_compare.py",
    # The case format takes int16 as quantized only (plain int16 is for custom operators); the unquantized form is
    # matched against LiteRT by tests/e2e/differential_ops/elementwise.py (its first ABS case).
    ("ABS", "int16_unquantized"): "tests/unit/test_rules_elementwise.py",
    # The integer-to-integer QUANTIZE forms beyond the case format's: every form is matched against its reference
    # by the differential walk (CI_CASES covers each form in CI).
    **{("QUANTIZE", form): "tests/e2e/differential.py" for form in (
        "uint8_to_uint8", "uint8_to_int8", "uint8_to_int16", "int8_to_uint8", "int8_to_int32", "int32_to_int8")},
}


@pytest.fixture(scope="module")
def selected() -> set[tuple[str, str]]:
    """(operator type, variant name) of every operator in every case's model, as the compiler lowers it."""
    options = options_mod.resolve(None, target="host")
    seen = set()
    for path in all_case_paths():
        data = build_case_model(load_case(path))
        graph = resources.resolve(litert.load(data, path.stem, 0), data, path.stem)
        graph, _ = verifier.verify(graph, path.stem)
        graph = lowering.prepare(graph, options, path.stem)
        seen |= {(step.op.op_type, step.variant.name) for step in lowering.lower(graph, options)}
    return seen


def test_every_variant_is_selected_by_a_case(selected):
    catalog = {(op_type, variant.name) for op_type, variant in ops.catalog()}
    assert selected <= catalog
    assert catalog - selected == set(NOT_IN_CASES), "a variant lost its case, or gained one: update NOT_IN_CASES"


def test_the_variants_tested_elsewhere_are_tested_there():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    for (op_type, variant), where in NOT_IN_CASES.items():
        text = (root / where).read_text(encoding="utf-8")
        assert op_type in text, f"{where} does not mention {op_type} ({variant})"


def test_every_operand_is_named():
    for op_type, variant in ops.catalog():
        for operand in (*variant.inputs, *variant.outputs):
            assert isinstance(operand.role, str) and operand.role.strip(), f"{op_type} {variant.name}: {operand}"
            assert operand.dtypes and all(isinstance(d, str) and d for d in operand.dtypes), \
                f"{op_type} {variant.name} {operand.role}: no dtypes"


def test_operand_roles_are_lower_case():
    """Roles name tensors in refusals and in `helia-aot operators` the way LiteRT's documentation does
    (input, output, weights_feature, input 0): lower case, so a message never shouts one role."""
    for op_type, variant in ops.catalog():
        for operand in (*variant.inputs, *variant.outputs):
            assert operand.role == operand.role.lower(), f"{op_type} {variant.name}: role {operand.role!r}"
