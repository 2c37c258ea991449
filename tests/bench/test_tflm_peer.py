# SPDX-License-Identifier: Apache-2.0
"""tools/tflm_peer's pure parts: the environment check, the source selection, the firmware's lines read
back, and the table. Nothing here builds TFLM (its sources are not in the repository)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import tflm_peer as cli  # noqa: E402
from bench_lib import tflm_peer, toolchain  # noqa: E402


def _tree(root: Path, files: list[str]) -> Path:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")
    return root


def _peer_env(tmp_path: Path) -> dict[str, str]:
    return {variable: str(_tree(tmp_path / variable, [marker]))
            for variable, (_, marker) in tflm_peer.SOURCE_ENVS.items()}


def test_missing_variable_is_named():
    with pytest.raises(tflm_peer.PeerSourcesMissing, match="^HELIA_TFLM_DIR is not set"):
        tflm_peer.source_dirs({})


def test_folder_without_its_marker_is_refused(tmp_path):
    env = _peer_env(tmp_path)
    env["HELIA_TFLM_RUY_DIR"] = str(tmp_path / "empty")
    with pytest.raises(tflm_peer.PeerSourcesMissing, match="HELIA_TFLM_RUY_DIR=.*ruy/profiler/instrumentation.h"):
        tflm_peer.source_dirs(env)
    env = _peer_env(tmp_path)
    assert set(tflm_peer.source_dirs(env)) == set(tflm_peer.SOURCE_ENVS)


def test_cli_without_sources_fails_in_one_line():
    env = {k: v for k, v in os.environ.items() if k not in tflm_peer.SOURCE_ENVS}
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "tflm_peer.py")], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert proc.stderr.startswith("error: HELIA_TFLM_DIR is not set")


def test_sources_replace_reference_kernels_and_leave_out_tests(tmp_path):
    env = _peer_env(tmp_path)
    micro = "tensorflow/lite/micro/"
    _tree(Path(env["HELIA_TFLM_DIR"]), [micro + "micro_interpreter.cc", micro + "micro_interpreter_test.cc",
                                        micro + "test_helpers.cc", micro + "mock_micro_graph.cc",
                                        micro + "kernels/conv.cc", micro + "kernels/conv_common.cc"])
    _tree(Path(env["HELIA_TFLM_CMSIS_NN_DIR"]), ["Source/A/arm_a_s8.c", "Source/A/arm_a_f32.c",
                                                 "Source/T/arm_nntables_flt.c"])
    names = {str(p.relative_to(tmp_path)) for p in tflm_peer.sources(tflm_peer.source_dirs(env))}
    assert "HELIA_TFLM_DIR/" + micro + "micro_interpreter.cc" in names
    assert "HELIA_TFLM_DIR/" + micro + "kernels/cmsis_nn/conv.cc" in names
    assert "HELIA_TFLM_DIR/" + micro + "kernels/conv_common.cc" in names
    assert "HELIA_TFLM_DIR/" + micro + "kernels/conv.cc" not in names  # CMSIS-NN's replaces it
    assert not [n for n in names if n.endswith(("_test.cc", "test_helpers.cc", "mock_micro_graph.cc"))]
    cmsis = [n for n in names if n.startswith("HELIA_TFLM_CMSIS_NN_DIR")]
    assert cmsis == ["HELIA_TFLM_CMSIS_NN_DIR/Source/A/arm_a_s8.c"]


def test_firmware_lines_are_read_back():
    stdout = ("helia: tflm_invoke instructions: 4000 (warm run; 100 SysTick ticks x 40.00; -O2)\n"
              "tflm: arena used 22820\ntflm: output checksum 8e56e000\ntflm: op 0 CONV_2D ticks 90\n")
    figures = tflm_peer.parse_output(stdout, "kws")
    assert figures["invoke_instructions"] == 4000 and figures["arena_used_bytes"] == 22820
    assert figures["output_checksum"] == "8e56e000"
    assert figures["operators"] == [{"position": 0, "op": "CONV_2D", "ticks": 90}]
    with pytest.raises(toolchain.BenchError, match="no count"):
        tflm_peer.parse_output("tflm: arena used 1\n", "kws")


def test_table_compares_with_ours():
    bench = {"models": [{"name": "m", "target": "apollo4p_evb", "conversion": {"scratch_arena_bytes": 500},
                         "backends": {"ns-cmsis-nn": {"model_run_instructions": 900, "output_checksum": "0000000a"}}}]}
    ours = cli.ours_figures(bench, "m", "apollo4p_evb")
    assert ours["instructions"] == 900 and cli.ours_figures(bench, "m", "corstone300") is None
    tflm = {"invoke_instructions": 1000, "arena_used_bytes": 700, "output_checksum": "0000000a"}
    rows = [{"name": "m", "target": "apollo4p_evb", "tflm": tflm, "ours": ours},
            {"name": "d", "target": "apollo4p_evb", "tflm": {**tflm, "output_checksum": "0000000b"}, "ours": ours},
            {"name": "n", "target": "apollo4p_evb", "tflm": tflm, "ours": None},
            {"name": "e", "target": "apollo4p_evb", "tflm": {"error": "boom"}, "ours": None}]
    lines = cli.markdown(rows).splitlines()
    assert lines[2] == "| m | apollo4p_evb | 1,000 | 900 | 0.900 | 700 | 500 | identical (0000000a) |"
    assert lines[3].endswith("| differ (TFLM 0000000b, ours 0000000a) |")
    assert lines[4] == "| n | apollo4p_evb | 1,000 | n/a | n/a | 700 | n/a | n/a |"
    assert lines[5] == "| e | apollo4p_evb | error | n/a | n/a | n/a | n/a | n/a |"
