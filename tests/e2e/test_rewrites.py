# SPDX-License-Identifier: Apache-2.0
"""Graph rewrites change no output bit: each model holding a rewrite pattern (tests/modelgen/rewrite_models.py)
and every model of the suite a rewrite fires on is converted with optimization.rewrites on and off, both
modules run on the host (portable kernels, ASan/UBSan) on the same seeded inputs, and their outputs must
be equal bit for bit, and within the usual bound of LiteRT. Where no rewrite fires, the two modules'
C sources must be byte-identical."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import helia_aot
from tests.e2e import harness
from tests.e2e.conftest import mlperf_model_or_skip
from tests.modelgen import rewrite_models as rm

OFF = {"optimization": {"rewrites": False}}
PATTERN_TOLERANCE = 1  # output codes against LiteRT, as the single-operator cases


def _convert(model: harness.ModelUnderTest, out: pathlib.Path, config) -> dict:
    result = helia_aot.convert(model.model_bytes, out, prefix=harness.PREFIX, target="host", config=config)
    return result.plan


def _sources(module: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(module)): p.read_bytes()
            for sub in ("src", "include") for p in sorted((module / sub).rglob("*")) if p.is_file()}


def _outputs(e2e, model: harness.ModelUnderTest, module: pathlib.Path, tag: str):
    exe = e2e.root / "bin" / "rewrites" / f"{model.name}_{tag}"
    exe.parent.mkdir(parents=True, exist_ok=True)
    harness.build_host_executable(module, e2e.portable_host_library(), exe)
    return harness.run_host_executable(exe, model)


def check_unchanged(e2e, model: harness.ModelUnderTest) -> list[dict]:
    """Convert with and without rewrites; equal sources when none fired, else bit-identical outputs on the
    host. Returns the rewrites that fired."""
    root = e2e.root / "rewrites" / model.name
    on, off = root / "on", root / "off"
    fired = _convert(model, on, None)["rewrites"]
    assert _convert(model, off, OFF)["rewrites"] == []
    if not fired:
        assert _sources(on) == _sources(off), f"{model.name}: no rewrite fired, yet the modules differ"
        return fired
    got_on = _outputs(e2e, model, on, "on")
    got_off = _outputs(e2e, model, off, "off")
    differences = harness.bit_differences(got_on, got_off)
    assert not differences, f"{model.name}: rewrites {[r['rewrite'] for r in fired]} changed outputs: {differences}"
    assert _sources(on) != _sources(off)
    return fired


@pytest.mark.parametrize("name", sorted(rm.PATTERNS))
def test_pattern_outputs_unchanged(e2e, name):
    model = harness.ModelUnderTest(name=f"rewrite_{name}", kind="rewrite", model_bytes=rm.build(name), seed=rm.SEED,
                                   tolerance=PATTERN_TOLERANCE)
    fired = check_unchanged(e2e, model)
    assert [r["rewrite"] for r in fired] == rm.PATTERNS[name][1]
    if not fired:
        return
    got = _outputs(e2e, model, e2e.root / "rewrites" / model.name / "on", "on")
    diffs = harness.per_output_max_diff(got, model.reference)
    e2e.record("rewrites vs LiteRT", model.name, max_abs_diff=diffs, rewrites=[r["rewrite"] for r in fired])
    assert max(diffs) <= PATTERN_TOLERANCE, f"{model.name}: max |diff| {diffs} against LiteRT"
    # The patterns are built so every clamp bites: the outputs are not constant.
    assert any(len(np.unique(np.concatenate([s[o].reshape(-1) for s in got]))) > 2 for o in range(len(got[0])))


@pytest.mark.parametrize("name", sorted(rm.IN_PLACE))
def test_in_place_outputs_unchanged(e2e, name):
    """The planner's in-place steps (the output pointer is an input pointer) compute the same bits."""
    model = harness.ModelUnderTest(name=f"in_place_{name}", kind="rewrite", model_bytes=rm.IN_PLACE[name][0](),
                                   seed=rm.SEED, tolerance=PATTERN_TOLERANCE)
    fired = check_unchanged(e2e, model)
    assert [r["rewrite"] for r in fired] == rm.IN_PLACE[name][1]
    got = _outputs(e2e, model, e2e.root / "rewrites" / model.name / "on", "on")
    assert max(harness.per_output_max_diff(got, model.reference)) <= PATTERN_TOLERANCE


def test_int16_glu_concat_unchanged(e2e):
    """The int16 encoder-decoder whose PAD before a depthwise convolution folds."""
    model = e2e.int16("glu_concat")
    fired = check_unchanged(e2e, model)
    assert [r["rewrite"] for r in fired] == ["fold_pad"]


@pytest.mark.parametrize("name", sorted(harness.MLPERF_MODELS))
def test_mlperf_unchanged(e2e, name):
    """No rewrite fires on the MLPerf Tiny models today: their modules are byte-identical either way (the
    test follows any rewrite that starts firing there by running both modules)."""
    check_unchanged(e2e, mlperf_model_or_skip(e2e, name))


def test_single_op_cases_unchanged():
    """No rewrite fires on a single-operator case (a rewrite needs two operators), so the modules
    test_single_op.py checks against LiteRT are the ones rewrites-off would give."""
    from helia_aot.lowering import lower as lowering, verifier
    from helia_aot.config import options as options_mod
    from helia_aot.frontend import litert
    from tests.modelgen.cases import all_case_paths, build_case_model, load_case
    opts = options_mod.resolve(None)
    fired = []
    for path in all_case_paths():
        data = build_case_model(load_case(path))
        graph, _ = verifier.verify(litert.load(data, path.name, 0), path.name)
        if lowering.prepare(graph, opts, path.name).rewrites:
            fired.append(path.stem)
    assert not fired
