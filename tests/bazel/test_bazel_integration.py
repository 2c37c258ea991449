# SPDX-License-Identifier: Apache-2.0
"""Integration tests of the Bazel rules from a user's point of view.

A scratch monorepo depends on helia_aot through `bazel_dep` + `local_path_override`, exactly like the
README's example, and a nested Bazel builds it:
- a second module from an MLPerf Tiny model, and a firmware binary that depends on a module;
- an edit to one model re-runs that model's conversion and its dependents, nothing else
  (checked on Bazel's own execution log);
- an unsupported model fails the build with the compiler's one-line error, not a traceback.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.skip_policy import models_not_available

_REPO = Path(__file__).resolve().parents[2]
_MODELS = Path(os.environ.get("HELIA_MODELS_DIR", _REPO.parent / "shared" / "models" / "mlperf-tiny"))
_LAUNCHER_RC = Path("/etc/helia/launcher.bazelrc")

_MODULE_BAZEL = """\
module(name = "firmware_monorepo")

bazel_dep(name = "helia_aot", version = "0.1.0")
local_path_override(module_name = "helia_aot", path = "{repo}")
"""

_BUILD_BAZEL = """\
load("@helia_aot//rules:defs.bzl", "helia_aot_module")

helia_aot_module(name = "kws_module", model = "kws.tflite", prefix = "kws")

helia_aot_module(name = "vww_module", model = "vww_96_int8.tflite", prefix = "vww")

cc_binary(name = "app", srcs = ["app.c"], deps = [":kws_module"])

helia_aot_module(name = "detector_module", model = "ssd_postprocess.tflite", prefix = "detector")
"""

_APP_C = """\
#include <stdio.h>
#include "kws_model.h"

int main(void) {
  static kws_model_context_t ctx;
  if (kws_model_init(&ctx) != 0 || kws_model_run(&ctx) != 0) return 1;
  printf("app: %d outputs\\n", KWS_NUM_OUTPUTS);
  return 0;
}
"""

pytestmark = pytest.mark.skipif(
    shutil.which("bazel") is None or not _LAUNCHER_RC.exists(),
    reason="needs the build environment of tools/bootstrap (run inside `bazel test`)",
)


def _ssd_postprocess_model() -> bytes:
    """An SSD detector's tail: LiteRT's TFLite_Detection_PostProcess custom operator on float boxes and
    scores (the converter writes it for every SSD export)."""
    from tests.modelgen import ModelBuilder
    b = ModelBuilder()
    boxes = b.input("boxes", (1, 10, 4), "float32")
    scores = b.input("scores", (1, 10, 3), "float32")
    anchors = b.const("anchors", np.full((10, 4), 0.5, np.float32), "float32")
    outs = [b.tensor(name, shape, "float32") for name, shape in
            (("detection_boxes", (1, 5, 4)), ("detection_classes", (1, 5)), ("detection_scores", (1, 5)),
             ("num_detections", (1,)))]
    b.custom_op("TFLite_Detection_PostProcess", [boxes, scores, anchors], outs,
                {"max_detections": 5, "max_classes_per_detection": 1, "num_classes": 2, "nms_score_threshold": 0.3,
                 "nms_iou_threshold": 0.6, "y_scale": 10.0, "x_scale": 10.0, "h_scale": 5.0, "w_scale": 5.0})
    for out in outs:
        b.output(out)
    return b.build()


class Monorepo:
    """A scratch workspace and a Bazel server of its own, stopped at the end."""

    def __init__(self, root: Path):
        self.root = root
        self.output_root = root.parent / "bazel-output-root"
        self.env = {
            "HOME": str(root.parent),
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
        }

    def bazel(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = ["bazel", f"--output_user_root={self.output_root}", f"--bazelrc={_LAUNCHER_RC}", *args]
        result = subprocess.run(command, cwd=self.root, env=self.env, capture_output=True, text=True, timeout=900)
        if check and result.returncode != 0:
            raise AssertionError(f"{' '.join(args)} failed ({result.returncode}):\n{result.stderr[-4000:]}")
        return result


@pytest.fixture(scope="module")
def monorepo(tmp_path_factory):
    root = tmp_path_factory.mktemp("helia-it") / "monorepo"
    root.mkdir()
    (root / "MODULE.bazel").write_text(_MODULE_BAZEL.format(repo=_REPO))
    (root / ".bazelrc").write_text(f"import {_REPO}/.bazelrc\n")
    (root / "BUILD.bazel").write_text(_BUILD_BAZEL)
    (root / "app.c").write_text(_APP_C)
    shutil.copyfile(_REPO / "models" / "kws.tflite", root / "kws.tflite")
    if (_MODELS / "vww_96_int8.tflite").is_file():  # the tests that build //:vww_module skip without it
        shutil.copyfile(_MODELS / "vww_96_int8.tflite", root / "vww_96_int8.tflite")
    (root / "ssd_postprocess.tflite").write_bytes(_ssd_postprocess_model())
    repo = Monorepo(root)
    yield repo
    repo.bazel("shutdown", check=False)


def _require_mlperf(*names: str) -> None:
    for name in names:
        if not (_MODELS / f"{name}.tflite").is_file():
            pytest.skip(models_not_available(f"MLPerf Tiny model {_MODELS / name}.tflite", "HELIA_MODELS_DIR"))


def _executed_spawns(log_path: Path) -> list[dict]:
    """Spawns in Bazel's JSON execution log (a stream of JSON objects) that really ran."""
    decoder = json.JSONDecoder()
    text = log_path.read_text()
    spawns, position = [], 0
    while position < len(text):
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            break
        entry, position = decoder.raw_decode(text, position)
        if not entry.get("cacheHit") and not entry.get("remoteCacheHit"):
            spawns.append(entry)
    return spawns


def test_second_module_from_mlperf_model_builds(monorepo):
    _require_mlperf("vww_96_int8")
    monorepo.bazel("build", "//:vww_module", "//:app")
    bin_dir = monorepo.root / "bazel-bin"
    plan = json.loads((bin_dir / "vww_module" / "vww_plan.json").read_text())
    assert plan["module_prefix"] == "vww"
    assert plan["model"]["file"] == "vww_96_int8.tflite"
    # The offline configuration links the portable kernels, so the module is planned for them.
    assert plan["kernel_library"]["name"] == "portable"
    assert all(not op["kernel"]["local_scratch_bytes"] for op in plan["operators"])
    assert (bin_dir / "vww_module" / "include" / "vww_model.h").is_file()
    run = subprocess.run([str(bin_dir / "app")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "app: 1 outputs" in run.stdout


def test_model_edit_reruns_only_its_conversion_and_dependents(monorepo):
    _require_mlperf("vww_96_int8", "kws_ref_model")
    monorepo.bazel("build", "//:vww_module", "//:app")
    # Replace the KWS model with another KWS model (same inputs and outputs, other weights).
    shutil.copyfile(_MODELS / "kws_ref_model.tflite", monorepo.root / "kws.tflite")
    log = monorepo.root.parent / "exec_log.json"
    monorepo.bazel("build", "//:vww_module", "//:app", f"--execution_log_json_file={log}")
    spawns = _executed_spawns(log)
    labels = {spawn.get("targetLabel", "") for spawn in spawns}
    mnemonics = {(spawn.get("targetLabel", ""), spawn.get("mnemonic", "")) for spawn in spawns}
    assert ("//:kws_module", "HeliaAotConvert") in mnemonics, mnemonics
    assert any(label == "//:app" for label in labels), labels
    assert labels <= {"//:kws_module", "//:app"}, f"unrelated actions re-ran: {sorted(labels)}"


def test_unsupported_model_fails_with_one_line_error(monorepo):
    # An SSD detector's post-processing custom operator, which helia_aot does not lower.
    result = monorepo.bazel("build", "//:detector_module", check=False)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(error_lines) == 1, result.stderr[-3000:]
    assert error_lines[0].startswith("error: UnsupportedModelError: ")
    assert "TFLite_Detection_PostProcess" in error_lines[0]
