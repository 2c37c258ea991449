# SPDX-License-Identifier: Apache-2.0
"""The CI fuzz run: CI_CASES seeded mutations of every shared model and every test-builder model,
through helia_aot.convert in process. Every outcome is a typed refusal leaving no output directory,
or a module that compiles with -Werror; one conversion in 50 also runs under ASan/UBSan; none takes
10 s. Every mutation class reaches the verifier. Past failures replay from regressions.txt.
`tools/fuzz --n N --seed S` runs any number (tests/fuzz/campaign.py holds the machinery)."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import pytest

import helia_aot
from tests.fuzz import campaign, mutations

CI_CASES = 2200
CI_SEED = 20261201
JOBS = int(os.environ.get("HELIA_FUZZ_JOBS", "2"))
_REGRESSIONS = Path(__file__).with_name("regressions.txt")


def _regressions() -> list[str]:
    lines = [line.split()[0] for line in _REGRESSIONS.read_text().splitlines() if line.strip()
             and not line.startswith("#")]
    return lines


@pytest.fixture(scope="module")
def models() -> dict[str, bytes]:
    return campaign.corpus()


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    if shutil.which(campaign.CC) is None:
        pytest.fail(f"{campaign.CC} not found: the fuzz run compiles every converted module")
    return campaign.sanitizer_library(tmp_path_factory.mktemp("fuzz-lib"))


def _report(failures: list[campaign.Outcome]) -> str:
    return "\n".join(f"{o.result}: {o.detail}\n  replay: tools/fuzz --replay '{o.case.replay_id}'" for o in failures)


def test_corpus_has_shared_and_builder_models(models):
    shared = [m for m in models if m.startswith("shared/")]
    folder = campaign.shared_models_dir()
    if folder is not None and folder.is_dir():
        assert len(shared) == len(list(folder.rglob("*.tflite"))) > 0
    assert sum(1 for m in models if m.startswith("modelgen/case/")) > 50
    assert "modelgen/kws" in models


def test_mutations_are_reproducible(models):
    cases = campaign.plan_cases(models, 40, seed=7)
    assert cases == campaign.plan_cases(models, 40, seed=7)
    assert cases != campaign.plan_cases(models, 40, seed=8)
    for case in cases[:len(mutations.CLASSES)]:
        first, data = campaign.damaged(models, case)
        again, same = campaign.damaged(models, case)
        assert (first, data) == (again, same)
        if case.mutation not in mutations.SIDE_FILES:  # those hand convert a hostile file beside the model
            assert data != models[first.model], f"{case.replay_id} left the model unchanged"


def test_campaign(models, library):
    cases = campaign.plan_cases(models, CI_CASES, CI_SEED)
    summary = campaign.run_campaign(models, cases, jobs=JOBS, library=library)
    print(summary.table())
    print(f"{len(summary.outcomes)} cases in {summary.seconds:.1f} s")
    assert len(summary.outcomes) == CI_CASES
    assert not summary.failures, f"{len(summary.failures)} failure(s):\n{_report(summary.failures)}"
    counts = summary.counts()
    for mutation in mutations.CLASSES:
        # A damaged model reaches the verifier; a hostile structure or side file, some typed refusal.
        hostile = mutation in mutations.HOSTILE
        refused = sum(n for result, n in counts.get(mutation, {}).items()
                      if (result.endswith("Error") if hostile else result == "InvalidModelError"))
        assert refused > 0, f"no {mutation} case was refused as expected: {counts.get(mutation)}"
    total = {r: sum(c.get(r, 0) for c in counts.values()) for r in (campaign.CONVERTED, campaign.RAN)}
    assert total[campaign.CONVERTED] > 0 and total[campaign.RAN] > 0, total


@pytest.mark.parametrize("replay_id", _regressions())
def test_regression(models, library, tmp_path, replay_id):
    case = campaign.Case.parse(replay_id)
    if case.model not in models:
        pytest.fail(f"{case.model} is not in the corpus (shared models folder: {campaign.shared_models_dir()})")
    outcome = campaign.Runner(models, tmp_path, library, run_all=True).run(case)
    assert not outcome.failed, _report([outcome])


# The campaign's own checks must catch what they look for.


def _probe(monkeypatch, tmp_path, fake_convert) -> campaign.Outcome:
    monkeypatch.setattr(helia_aot, "convert", fake_convert)
    models = {"modelgen/kws": (campaign.REPO / "models" / "kws.tflite").read_bytes()}
    return campaign.Runner(models, tmp_path).run(campaign.Case("modelgen/kws", "byte_flip", 1))


def test_runner_reports_an_untyped_exception(monkeypatch, tmp_path):
    def convert(data, out, **kwargs):
        raise ValueError("boom")
    outcome = _probe(monkeypatch, tmp_path, convert)
    assert outcome.result == "exception" and "ValueError: boom" in outcome.detail


def test_runner_reports_a_hang(monkeypatch, tmp_path):
    monkeypatch.setattr(campaign, "HANG_SECONDS", 0.2)

    def convert(data, out, **kwargs):
        time.sleep(5)
    outcome = _probe(monkeypatch, tmp_path, convert)
    assert outcome.result == "hang" and outcome.seconds < 2 and "s of wall time" in outcome.detail


def test_runner_counts_cpu_time_against_the_budget(monkeypatch, tmp_path):
    """Work the input causes is measured in CPU seconds: a busy conversion is a hang after HANG_SECONDS
    of CPU, however long a loaded machine takes to give it them."""
    monkeypatch.setattr(campaign, "HANG_SECONDS", 0.2)
    monkeypatch.setattr(campaign, "WALL_FACTOR", 1000)  # the wall-clock limit out of the way

    def convert(data, out, **kwargs):
        while True:
            pass
    outcome = _probe(monkeypatch, tmp_path, convert)
    assert outcome.result == "hang" and "0.2 s of CPU" in outcome.detail


def test_runner_reports_output_left_by_a_refusal(monkeypatch, tmp_path):
    def convert(data, out, **kwargs):
        Path(out).mkdir(parents=True)
        raise helia_aot.InvalidModelError("bad model", "fix it")
    assert _probe(monkeypatch, tmp_path, convert).result == "partial_output"


def test_runner_reports_a_module_that_does_not_compile(monkeypatch, tmp_path):
    original = (campaign.REPO / "models" / "kws.tflite").read_bytes()

    def convert(data, out, **kwargs):
        (Path(out) / "src").mkdir(parents=True)
        (Path(out) / "include").mkdir()
        body = "return 0;" if data == original else "int unused; return 0;"  # only the damaged one fails
        (Path(out) / "src" / "e2e_model.c").write_text(f"int f(void);\nint f(void) {{ {body} }}\n")
    outcome = _probe(monkeypatch, tmp_path, convert)
    assert outcome.result == "compile_error" and "unused" in outcome.detail


def test_runner_sets_apart_entries_the_portable_headers_lack(monkeypatch, tmp_path):
    def module(call: str):
        def convert(data, out, **kwargs):
            (Path(out) / "src").mkdir(parents=True)
            (Path(out) / "include").mkdir()
            (Path(out) / "src" / "e2e_model.c").write_text(f"int f(void);\nint f(void) {{ return {call}; }}\n")
        return convert
    monkeypatch.delenv(campaign.NS_CMSIS_NN_ENV, raising=False)
    missing = _probe(monkeypatch, tmp_path, module("arm_not_a_kernel_s99(1)"))
    assert missing.result == campaign.KERNEL_MISSING and missing.detail.startswith("arm_not_a_kernel_s99 (not")
    # ns-cmsis-nn's headers lack it too: a failure.
    fake = tmp_path / "fake_ns_cmsis_nn"
    (fake / "Include").mkdir(parents=True)
    monkeypatch.setenv(campaign.NS_CMSIS_NN_ENV, str(fake))
    assert _probe(monkeypatch, tmp_path, module("arm_not_a_kernel_s99(1)")).result == "compile_error"
    other = _probe(monkeypatch, tmp_path, module("not_a_kernel(1)"))  # not an ns-cmsis-nn entry: a failure
    assert other.result == "compile_error"


def test_refused_conversion_leaves_no_directory(tmp_path):
    """The property the campaign checks, on one fixed damaged model: a fresh output path stays absent."""
    data = bytearray((campaign.REPO / "models" / "kws.tflite").read_bytes())
    model = mutations.schema.ModelT.InitFromPackedBuf(bytes(data), 0)
    model.subgraphs[0].outputs = [len(model.subgraphs[0].tensors) + 5]
    damaged = mutations._pack(model)
    with pytest.raises(helia_aot.InvalidModelError, match="output 0"):
        helia_aot.convert(damaged, tmp_path / "fresh" / "module", prefix="m", target="host")
    assert list(tmp_path.iterdir()) == [], "a refused conversion left files behind"


def test_runner_reports_a_conversion_over_its_memory_budget(monkeypatch, tmp_path):
    monkeypatch.setattr(campaign, "MEMORY_BUDGET", 64 << 20)
    before = campaign.resource.getrlimit(campaign.resource.RLIMIT_AS)

    def convert(data, out, **kwargs):
        return bytearray(512 << 20)
    outcome = _probe(monkeypatch, tmp_path, convert)
    assert outcome.result == "over_budget" and outcome.failed
    assert campaign.resource.getrlimit(campaign.resource.RLIMIT_AS) == before  # compilers run unbound


def test_side_file_classes_hand_convert_their_file(monkeypatch, tmp_path):
    seen = {}

    def convert(data, out, **kwargs):
        seen.update({k: Path(v).read_text() for k, v in kwargs.items() if k in ("config", "plan")})
        raise helia_aot.InvalidConfigError("refused", "fix it")
    monkeypatch.setattr(helia_aot, "convert", convert)
    models = {"modelgen/kws": (campaign.REPO / "models" / "kws.tflite").read_bytes()}
    runner = campaign.Runner(models, tmp_path)
    runner.plans["modelgen/kws", "host"] = runner.plans["modelgen/kws", "corstone300"] = '{"schema_version": 1}'
    for mutation, key in (("hostile_yaml", "config"), ("hostile_plan", "plan")):
        outcome = runner.run(campaign.Case("modelgen/kws", mutation, 3))
        assert outcome.result == "InvalidConfigError", outcome  # the side file is not left output
        assert seen.pop(key)


def test_campaign_names_the_case_a_stuck_worker_ran(monkeypatch):
    """A worker stuck where the alarm cannot reach (here: SIGALRM blocked) is reported with its own case."""
    monkeypatch.setattr(campaign, "STUCK_SECONDS", 3)
    monkeypatch.setattr(campaign, "HANG_SECONDS", 1)

    def convert(data, out, **kwargs):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(30)
    monkeypatch.setattr(helia_aot, "convert", convert)
    models = {"modelgen/kws": (campaign.REPO / "models" / "kws.tflite").read_bytes()}
    cases = [campaign.Case("modelgen/kws", "truncate", seed) for seed in (7, 8, 9)]  # the third never starts
    summary = campaign.run_campaign(models, cases, jobs=2, sanitize=False)
    assert {o.case for o in summary.outcomes} == set(cases[:2])
    assert all(o.result == "hang" and "while this case" in o.detail for o in summary.outcomes)
