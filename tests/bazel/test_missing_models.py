# SPDX-License-Identifier: Apache-2.0
"""A missing optional input stops only what needs it.

A copy of this clone with no models anywhere (no ../shared beside it, HELIA_MODELS_DIR an empty
folder, TFLM's GitHub blocked) under a nested Bazel of its own:
- `bazel build --nobuild //...` analyses every target: @tflm_models exists without TFLM's files,
  each of which is a target no platform is compatible with;
- `bazel test //models/...` runs the KWS tests and skips every micro_speech test and every test of
  //models/suite (Bazel's summary: skipped, not passed);
- each of them carries the reason as its skip tag (the suite's: the model file it lacks), and
  tools/run_tests' summary
  (tools/lib/summarize_tests.py, fed the query as run_tests feeds it) counts them as skipped for that
  reason: allowed on a developer's machine, a failure where the models are required (CI).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.skip_policy import MODELS_NOT_AVAILABLE, REQUIRE_MODELS_ENV, SKIP_TAG

_REPO = Path(__file__).resolve().parents[2]
_LAUNCHER_RC = Path("/etc/helia/launcher.bazelrc")
# What a fresh clone has: no build outputs, no user settings (a remote cache), no Git metadata.
_NOT_COPIED = shutil.ignore_patterns(".git", "bazel-*", "__pycache__", ".helia-it", "user.bazelrc", "mutants")
_MICRO_SPEECH_TESTS = {
    "//models/micro_speech:classifier_golden",
    "//models/micro_speech:classifier_golden_host",
    "//models/micro_speech:micro_speech_demo_test",
    "//models/micro_speech:preprocessor_golden",
    "//models/micro_speech:preprocessor_golden_host",
    "//models/micro_speech:speech_golden",
    "//models/micro_speech:speech_golden_host",
}
# //models/suite (helia_aot_model_suite): two golden tests per model and the summary, which needs them all.
_SUITE_MLPERF = ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8", "person_detect")
_SUITE_TESTS = {f"//models/suite:{model}{suffix}" for model in (*_SUITE_MLPERF, "micro_speech_quantized")
                for suffix in ("_golden", "_golden_host")} | {"//models/suite:suite_summary"}
# The suite's tests that need TFLM's micro_speech classifier share @tflm_models' reason; so does the
# summary, which needs every model: of its reasons the summary counts the first in Bazel's (sorted) order.
_TFLM_TESTS = _MICRO_SPEECH_TESTS | {"//models/suite:micro_speech_quantized_golden",
                                     "//models/suite:micro_speech_quantized_golden_host",
                                     "//models/suite:suite_summary"}

pytestmark = pytest.mark.skipif(
    shutil.which("bazel") is None or not _LAUNCHER_RC.exists(),
    reason="needs the build environment of tools/bootstrap (run inside `bazel test`)",
)


class Clone:
    """A copy of the clone with a Bazel server of its own, stopped at the end."""

    def __init__(self, root: Path):
        self.root = root / "clone"
        shutil.copytree(_REPO, self.root, ignore=_NOT_COPIED, symlinks=True)
        self.output_root = root / "bazel-output-root"
        mlperf = root / "models" / "mlperf-tiny"  # empty, and no tflm folder beside it
        mlperf.mkdir(parents=True)
        # Downloads from TFLM's GitHub fail here even on a machine with network, and a repository cache
        # of its own holds no TFLM file from an earlier fetch.
        downloader = root / "downloader.cfg"
        downloader.write_text("block raw.githubusercontent.com\n")
        self.flags = [f"--experimental_downloader_config={downloader}",
                      f"--repository_cache={root / 'repository-cache'}"]
        self.env = {"HOME": str(root), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                    "HELIA_MODELS_DIR": str(mlperf)}

    def bazel(self, command: str, *args: str) -> subprocess.CompletedProcess:
        argv = ["bazel", f"--output_user_root={self.output_root}", f"--bazelrc={_LAUNCHER_RC}", command,
                *([] if command == "shutdown" else self.flags), *args]
        return subprocess.run(argv, cwd=self.root, env=self.env, capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    clone = Clone(tmp_path_factory.mktemp("helia-no-models"))
    yield clone
    clone.bazel("shutdown")


def _summary(clone: Clone, query_xml: str, environ: dict) -> subprocess.CompletedProcess:
    command = [sys.executable, str(_REPO / "tools" / "lib" / "summarize_tests.py"),
               str((clone.root / "bazel-testlogs").resolve()), "--query-xml", "-"]
    return subprocess.run(command, input=query_xml, env=environ, capture_output=True, text=True, timeout=60)


def test_every_target_is_analysed_without_the_models(clone):
    result = clone.bazel("build", "--nobuild", "//...")
    assert result.returncode == 0, result.stderr[-4000:]
    # TFLM's files are not there: each is a target no platform is compatible with, not a source file.
    kinds = clone.bazel("query", "@tflm_models//:micro_speech_quantized.tflite + @tflm_models//:yes_1000ms.wav",
                        "--output=label_kind")
    assert kinds.returncode == 0, kinds.stderr[-2000:]
    assert [line.split(" ")[0] for line in kinds.stdout.splitlines()] == ["filegroup", "filegroup"], kinds.stdout


def test_micro_speech_tests_are_skipped_with_the_reason_and_the_rest_runs(clone):
    result = clone.bazel("test", "//models/...")
    assert result.returncode == 0, result.stderr[-4000:]
    # Bazel's own summary (on stdout): the seven micro_speech tests and the suite's 13 are skipped, not passed.
    assert "Executed 3 out of 23 tests: 3 tests pass and 20 were skipped." in result.stdout, result.stdout[-3000:]

    tagged = clone.bazel("query", f'attr(tags, "{SKIP_TAG}{MODELS_NOT_AVAILABLE}", tests(//models/...))')
    assert tagged.returncode == 0, tagged.stderr[-2000:]
    assert set(tagged.stdout.split()) == _MICRO_SPEECH_TESTS | _SUITE_TESTS, tagged.stdout

    # The closing summary of tools/run_tests over this run, fed the query as run_tests feeds it.
    query = clone.bazel("query", "tests(//models/...)", "--output=xml")
    assert query.returncode == 0, query.stderr[-2000:]
    environ = {k: v for k, v in os.environ.items() if k != REQUIRE_MODELS_ENV}
    summary = _summary(clone, query.stdout, environ)
    lines = summary.stdout.splitlines()
    assert summary.returncode == 0, summary.stdout + summary.stderr
    assert lines[-1] == "tests: 3 passed, 0 failed, 20 skipped", summary.stdout
    skipped = [line for line in lines if line.startswith("skipped ")]
    # One line for TFLM's files, one per missing suite model.
    assert len(skipped) == 1 + len(_SUITE_MLPERF), summary.stdout
    tflm_line = next(line for line in skipped if "TFLM's micro_speech" in line)
    assert tflm_line.startswith(f"skipped 10: {MODELS_NOT_AVAILABLE} TFLM's micro_speech models and clips (set "
                                "HELIA_TFLM_MODELS_DIR"), tflm_line
    assert all(f"{label} 1" in tflm_line for label in _TFLM_TESTS), tflm_line
    for model in _SUITE_MLPERF:
        line = next(line for line in skipped if f" {model}.tflite for //models/suite " in line)
        assert line.startswith(f"skipped 2: {MODELS_NOT_AVAILABLE} "), line
        assert f"//models/suite:{model}_golden 1" in line and f"//models/suite:{model}_golden_host 1" in line, line

    # Where the models are required (CI), the same run fails, naming the reason and the count.
    strict = _summary(clone, query.stdout, environ | {REQUIRE_MODELS_ENV: "1"})
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert f"skip not allowed: 10 skipped for '{MODELS_NOT_AVAILABLE} TFLM's micro_speech" in strict.stdout
    assert f"skip not allowed: 2 skipped for '{MODELS_NOT_AVAILABLE} vww_96_int8.tflite" in strict.stdout
