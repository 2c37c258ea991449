#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The peer measurement of issue #31: TensorFlow Lite Micro + CMSIS-NN on the same core, the same way.
"""Usage: tools/tflm_peer [--target NAME] [--ours BENCH.json] [--json FILE] [--work-dir DIR] [MODEL.tflite ...]

Builds TensorFlow Lite Micro with its CMSIS-NN kernels (kernels/cmsis_nn/*.cc) into a firmware for the
target's core with our bench firmware's CPU flags, -O2, startup, linker script, SysTick instruction counter
and QEMU command (tools/bench_lib/toolchain.py, from toolchains/arm_gnu/cores.bzl), embeds each model (the
four MLPerf Tiny int8 models in HELIA_MODELS_DIR by default) as a C array and feeds it tools/bench's seeded
inputs; one warm-up Invoke, then one timed Invoke. Prints per model: instructions per Invoke, the arena TFLM
used (arena_used_bytes()) and an FNV-1a checksum of the outputs (bench_main.c's hash), and, given the JSON of
a tools/bench run on the same target (--ours), our ns-cmsis-nn module beside it: instructions, ratio,
arena, and whether the outputs are identical. A profiled second build gives instructions per operator
(JSON only).

The sources come from these environment variables (each an exported source tree at TFLM's pinned commit;
README.md, "Benchmark"):
  HELIA_TFLM_DIR              TensorFlow Lite Micro
  HELIA_TFLM_CMSIS_NN_DIR     CMSIS-NN at the commit TFLM pins (cmsis_nn_download.sh)
  HELIA_TFLM_FLATBUFFERS_DIR  flatbuffers at TFLM's tag, with TFLM's flatbuffers.patch applied
  HELIA_TFLM_GEMMLOWP_DIR     gemmlowp at TFLM's commit (third_party_downloads.inc)
  HELIA_TFLM_RUY_DIR          ruy at TFLM's commit
The C++ library comes from `HELIA_TFLM_PEER=1 tools/bootstrap`. Instruction counts repeat exactly."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # helia_aot from this clone
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_lib (PYTHONSAFEPATH drops the script's folder)

from bench_lib import tflm_peer, toolchain  # noqa: E402

INT8_MODELS = ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8")
OUR_BACKEND = "ns-cmsis-nn"
JSON_SCHEMA = "helia-tflm-peer/1"


def _parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tools/tflm_peer", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", type=Path, help="models to measure (default: the MLPerf int8 four)")
    parser.add_argument("--target", default="apollo4p_evb", choices=list(toolchain.TARGET_CORES),
                        help="the benchmark target whose core and board to build for (default: apollo4p_evb)")
    parser.add_argument("--ours", type=Path, help="JSON of a tools/bench run on the same target to compare with")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--work-dir", type=Path, help="keep build artefacts here (a second run recompiles nothing)")
    return parser.parse_args(argv)


def _model_list(paths: list[Path]) -> list[tuple[str, Path]]:
    if paths:
        return [(path.stem, path.resolve()) for path in paths]
    from bench import _models_dir
    return [(name, _models_dir() / f"{name}.tflite") for name in INT8_MODELS]


def ours_figures(bench: dict, name: str, target: str) -> dict | None:
    """Our module's figures for a model and target from a tools/bench JSON, or None when it has none."""
    for row in bench.get("models", []):
        figures = (row.get("backends") or {}).get(OUR_BACKEND) or {}
        if row.get("name") == name and row.get("target") == target and "model_run_instructions" in figures:
            return {"instructions": figures["model_run_instructions"], "output_checksum": figures["output_checksum"],
                    "arena_bytes": row["conversion"]["scratch_arena_bytes"], "operators": figures.get("operators", [])}
    return None


def _cell(value: int | None) -> str:
    return "n/a" if value is None else f"{value:,}"


def markdown(rows: list[dict]) -> str:
    """One line per model: TFLM + CMSIS-NN beside our module (when measured)."""
    lines = ["| model | target | TFLM + CMSIS-NN instr | ours (ns-cmsis-nn) instr | ours / TFLM | TFLM arena B "
             "| our arena B | outputs |", "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        tflm, ours = row.get("tflm") or {}, row.get("ours") or {}
        if "error" in tflm:
            lines.append(f"| {row['name']} | {row['target']} | error | {_cell(ours.get('instructions'))} | n/a | n/a "
                         f"| {_cell(ours.get('arena_bytes'))} | n/a |")
            continue
        ratio = f"{ours['instructions'] / tflm['invoke_instructions']:.3f}" if ours else "n/a"
        if not ours:
            outputs = "n/a"
        elif ours["output_checksum"] == tflm["output_checksum"]:
            outputs = f"identical ({tflm['output_checksum']})"
        else:
            outputs = f"differ (TFLM {tflm['output_checksum']}, ours {ours['output_checksum']})"
        lines.append(f"| {row['name']} | {row['target']} | {_cell(tflm['invoke_instructions'])} "
                     f"| {_cell(ours.get('instructions'))} | {ratio} | {_cell(tflm['arena_used_bytes'])} "
                     f"| {_cell(ours.get('arena_bytes'))} | {outputs} |")
    return "\n".join(lines)


NOTES = """
How each column was measured:
- TFLM + CMSIS-NN: one warm MicroInterpreter::Invoke() (after one warm-up Invoke) of TFLM with its CMSIS-NN
  kernels, built with our bench firmware's core flags and -O2 (tools/bench_lib/tflm_peer.py), on the target's
  QEMU board with -icount shift=0, timed with the same SysTick counter; TFLM arena B is arena_used_bytes().
- ours: model_run instructions of the ns-cmsis-nn module from the tools/bench JSON given with --ours (the same
  core, board and counter); our arena B is the scratch arena of tools/bench's default conversion.
- outputs: FNV-1a of every output byte after the timed run; both firmwares get tools/bench's seeded inputs."""


def _log(start: float, message: str) -> None:
    print(f"[tflm_peer t={time.monotonic() - start:6.1f}s] {message}", file=sys.stderr, flush=True)


def _measure(models: list[tuple[str, Path]], target: str, bench: dict, work: Path, start: float) -> list[dict]:
    core = toolchain.TARGET_CORES[target]
    dirs = tflm_peer.source_dirs()
    _log(start, f"building TFLM + CMSIS-NN for {core.core} ({len(tflm_peer.sources(dirs))} sources)")
    peer = tflm_peer.PeerBuild(dirs, core, tflm_peer.build_library(dirs, core, work))
    _log(start, "TFLM library built")
    rows = []
    for name, path in models:
        row = {"name": name, "model": str(path), "target": target, "ours": ours_figures(bench, name, target)}
        try:
            if not path.is_file():
                raise toolchain.BenchError(f"model file not found: {path} (set HELIA_MODELS_DIR or give the path)")
            row["tflm"] = tflm_peer.measure(peer, name, path, work)
            _log(start, f"{name}: TFLM {row['tflm']['invoke_instructions']} instructions")
        except toolchain.BenchError as error:
            row["tflm"] = {"error": str(error)}
            _log(start, f"{name}: TFLM failed: {str(error).splitlines()[0]}")
        rows.append(row)
    return rows


def _read_bench(path: Path | None) -> dict:
    if path is None:
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise toolchain.BenchError(f"--ours {path}: not a readable tools/bench JSON ({error})") from None


def main(argv: list[str]) -> int:
    start = time.monotonic()
    args = _parse_args(argv)
    try:
        tflm_peer.source_dirs()  # a missing variable fails before anything is built
        missing = [tool for tool in (tflm_peer.ARM_CXX, *toolchain.missing_tools()) if shutil.which(tool) is None]
        if missing:
            raise toolchain.BenchError(f"{', '.join(missing)} not on PATH. Run through tools/tflm_peer after "
                                       "`HELIA_TFLM_PEER=1 tools/bootstrap`.")
        bench = _read_bench(args.ours)
        models = _model_list(args.models)
        if args.work_dir:
            args.work_dir.mkdir(parents=True, exist_ok=True)
            rows = _measure(models, args.target, bench, args.work_dir.resolve(), start)
        else:
            with tempfile.TemporaryDirectory(prefix="helia-tflm-peer-") as tmp:
                rows = _measure(models, args.target, bench, Path(tmp), start)
    except toolchain.BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(markdown(rows))
    print(NOTES)
    print(f"\nWhole run: {time.monotonic() - start:.1f} s.")
    if args.json:
        args.json.write_text(json.dumps({"schema": JSON_SCHEMA, "target": args.target, "models": rows,
                                         "sources": {k: str(v) for k, v in tflm_peer.source_dirs().items()}},
                                        indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 1 if any("error" in row["tflm"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
