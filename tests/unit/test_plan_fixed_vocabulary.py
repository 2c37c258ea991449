# SPDX-License-Identifier: Apache-2.0
"""What every single-operator case lowers to, against the documented contract: the plan's
`operators[].fixed` uses the vocabulary helia_aot.record.plan_model.FIXED_VOCABULARY documents (tools read its
closed values as words), an operator computed without a kernel entry says how, every kernel entry is
a function the kernel library declares, and every operator has a template to render. Lowering only
(no C is written), so the whole catalog of cases runs in seconds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import helia_aot
from helia_aot.lowering import lower as lowering, verifier
from helia_aot import ops
from helia_aot.config import options as options_mod
from helia_aot.frontend import resources
from helia_aot.frontend import litert
from helia_aot.record.plan_model import FIXED_VOCABULARY
from tests.modelgen.cases import CASES_DIR, all_case_paths, build_case_model, load_case

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = REPO / "helia_aot" / "ops" / "templates"
# Operators without a kernel entry that only move, fill or convert bytes (no arithmetic to describe):
# they record no `implementation`.
BYTE_MOVES = {"BROADCAST_TO", "CAST", "FILL", "PACK", "SHAPE", "SPLIT", "SPLIT_V", "TILE", "UNPACK", "ZEROS_LIKE"}


def lower_case(path: Path):
    options = options_mod.resolve(None, target="host")
    data = build_case_model(load_case(path))
    graph = resources.resolve(litert.load(data, path.stem, 0), data, path.stem)
    graph, _ = verifier.verify(graph, path.stem)
    graph = lowering.prepare(graph, options, path.stem)
    return graph, lowering.lower(graph, options)


@pytest.fixture(scope="module")
def lowered() -> list[tuple[str, object, object]]:
    """(case name, graph, step) of every operator of every single-operator case."""
    result = []
    for path in all_case_paths():
        graph, steps = lower_case(path)
        result += [(path.stem, graph, step) for step in steps]
    return result


@pytest.fixture(scope="module")
def steps(lowered) -> list[tuple[str, object]]:
    return [(case, step) for case, _, step in lowered]


def test_fixed_keys_and_values_are_the_documented_vocabulary(steps):
    for case, step in steps:
        for key, value in step.lowering.fixed.items():
            assert key in FIXED_VOCABULARY, f"{case} {step.op.op_type}: fixed key {key!r} is not documented"
            allowed = FIXED_VOCABULARY[key][1]
            assert isinstance(value, str) and value.strip(), f"{case}: fixed {key} = {value!r}"
            assert allowed is None or value in allowed, \
                f"{case} {step.op.op_type}: fixed {key} = {value!r}, documented: {allowed}"


def test_the_vocabulary_documents_every_key():
    for key, (meaning, allowed) in FIXED_VOCABULARY.items():
        assert re.fullmatch(r"[a-z][a-z_]*", key), key
        assert meaning.strip(), key
        assert allowed is None or (allowed and all(v == v.strip() and v for v in allowed)), key


def test_operators_without_a_kernel_entry_say_how_they_compute(steps):
    seen = set()
    for case, step in steps:
        low = step.lowering
        if low.entry is not None or low.alias or step.op.op_type in BYTE_MOVES:
            continue
        seen.add(step.op.op_type)
        assert "implementation" in low.fixed, f"{case} {step.op.op_type}: no entry and no fixed implementation"
    # the inline-C operators the cases cover, among them those whose mutants dropped the word
    assert {"SPACE_TO_BATCH_ND", "SQUARED_DIFFERENCE", "GATHER_ND", "TRANSPOSE_CONV", "REDUCE_MAX", "SUM"} <= seen


def test_int16_transpose_conv_records_its_int64_accumulator(lowered):
    """LiteRT's 16x8 TRANSPOSE_CONV with an int64 bias sums in int64; the plan says so."""
    wide = [step for _, graph, step in lowered if step.op.op_type == "TRANSPOSE_CONV"
            and graph.tensors[step.op.inputs[2]].dtype == "int16" and step.op.inputs[3] >= 0
            and graph.tensors[step.op.inputs[3]].dtype == "int64"]
    assert wide
    for step in wide:
        assert step.lowering.fixed.get("accumulator") == "int64", step.lowering.fixed


def _declared_functions() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "kernels" / "portable" / "include").rglob("*.h"))
    return set(re.findall(r"\b(\w+)\s*\(", text))


def test_every_kernel_entry_is_declared_by_the_kernel_library(steps):
    declared = _declared_functions()
    entries = set()
    for case, step in steps:
        low = step.lowering
        for entry in [low.entry, *(low.candidates or [])]:
            if entry is not None:
                entries.add(entry)
                assert entry in declared, f"{case} {step.op.op_type}: entry {entry} is not a kernel library function"
    assert {"arm_gather_s16", "arm_equal_s8", "arm_greater_s16", "arm_less_equal_s8"} <= entries


def test_every_entry_the_catalog_declares_is_a_kernel_library_function():
    """`helia-aot operators` lists the entries each variant may call: they are the library's functions."""
    declared = _declared_functions()
    for op_type, variant in ops.catalog():
        for entry in variant.entries:
            assert entry in declared, f"{op_type} {variant.name}: declared entry {entry} is not a library function"


def test_every_entry_called_is_one_its_variant_declares(steps):
    # Its entries, or an entry it declares as fallback where the library lacks one (Variant.fallbacks).
    for case, step in steps:
        if step.lowering.entry is not None:
            declared = (*step.variant.entries, *(instead for _, instead in step.variant.fallbacks if instead))
            assert step.lowering.entry in declared, \
                f"{case} {step.op.op_type} {step.variant.name}: calls {step.lowering.entry}, declares " \
                f"{step.variant.entries}"


def test_every_operator_has_a_template_to_render(steps):
    names = {p.name for p in TEMPLATES.iterdir()}
    for case, step in steps:
        low = step.lowering
        if low.alias:
            continue
        assert low.template in names, f"{case} {step.op.op_type} {step.variant.name}: template {low.template!r}"


def test_int16_gather_calls_arm_gather_s16(tmp_path):
    path = next(p for p in all_case_paths() if p.stem == "gather_int16_runtime_last_axis")
    result = helia_aot.convert(build_case_model(load_case(path)), tmp_path / "out", target="host")
    assert result.plan["operators"][0]["kernel"]["entry"] == "arm_gather_s16"
    source = (tmp_path / "out" / "src" / "model_model.c").read_text()
    assert re.search(r"\barm_gather_s16\(", source)
    assert CASES_DIR.is_dir()
