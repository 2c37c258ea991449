#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The benchmark: per model and target, conversion time, memory, code size, instructions per model_run
# on an emulated core (portable kernels and ns-cmsis-nn), glue share and instructions per MAC.
"""Usage: tools/bench [--json FILE] [--config FILE.yaml] [--skip-mlperf] [--skip-int16] [--skip-micro-speech]
                   [--backend NAME]... [--target NAME]... [MODEL.tflite ...]

Converts each MLPerf Tiny int8 model (HELIA_MODELS_DIR, default <repo>/../shared/models/mlperf-tiny),
the multi-layer int16 test networks (tests/modelgen/int16_models.py) and each .tflite given for each
target: corstone300 (Cortex-M55, ns-cmsis-nn's MVE build, QEMU mps3-an547) and apollo4p_evb
(Cortex-M4, ns-cmsis-nn's DSP build, QEMU mps2-an386). Builds firmware around each module with the
flags of toolchains/arm_gnu/cores.bzl (Bazel's Arm toolchains) and prints one Markdown table row per
model and target, and a progress line per model and step on stderr; then, on corstone300, TFLM's
micro_speech pipeline (models/micro_speech, when TFLM's models are in HELIA_TFLM_MODELS_DIR or the tflm
folder beside HELIA_MODELS_DIR): instructions per audio frame and per 1 s clip. --json writes the same
data. Build artefacts live in a temporary directory outside the repository. Instruction counts and
sizes repeat exactly."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # helia_aot from this clone
# bench_lib beside this file (explicitly: PYTHONSAFEPATH, set under Bazel, drops the script's folder).
sys.path.insert(0, str(Path(__file__).resolve().parent))

import helia_aot  # noqa: E402
from helia_aot.config.targets import builtin_targets  # noqa: E402
from bench_lib import convert, firmware, kernels, micro_speech, table, toolchain  # noqa: E402

TARGETS = tuple(toolchain.TARGET_CORES)  # corstone300 first
# Run by default: the targets helia-aot has built in (the QEMU boards' once it knows them); the others
# with --target and a --config that defines them (target.file).
DEFAULT_TARGETS = tuple(t for t in TARGETS if t in {target.name for target in builtin_targets()})
MLPERF_MODELS = ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8",
                 # float32, and the hybrid (int8 weights behind float32 activations) KWS
                 "kws_ref_model_float32", "vww_96_float", "pretrainedResnet", "ad01_fp32")
JSON_SCHEMA = "helia-bench/1"


def _models_dir() -> Path:
    return Path(os.environ.get("HELIA_MODELS_DIR", toolchain.REPO.parent / "shared" / "models" / "mlperf-tiny"))


def _log(start: float, message: str) -> None:
    print(f"[bench t={time.monotonic() - start:6.1f}s] {message}", file=sys.stderr, flush=True)


def _tool_versions() -> dict:
    def first_line(cmd: list[str]) -> str:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        return out.splitlines()[0].strip() if out else "unknown"
    return {"arm_gcc": first_line([toolchain.ARM_CC, "--version"]),
            "qemu": first_line([toolchain.QEMU, "--version"]),
            "python": sys.version.split()[0], "helia_aot": helia_aot.__version__}


def _parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tools/bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", type=Path, help="extra .tflite models to measure")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--skip-mlperf", action="store_true", help="leave out the MLPerf Tiny models")
    parser.add_argument("--skip-int16", action="store_true", help="leave out the int16 test networks")
    parser.add_argument("--skip-micro-speech", action="store_true",
                        help="leave out TFLM's micro_speech pipeline (models/micro_speech)")
    parser.add_argument("--backend", action="append", choices=[kernels.PORTABLE, kernels.NS_CMSIS_NN],
                        help="kernel libraries to run (default: portable, plus ns-cmsis-nn when "
                             "HELIA_NS_CMSIS_NN_DIR is set)")
    parser.add_argument("--target", action="append", choices=list(TARGETS),
                        help=f"targets to convert and run for (default: {', '.join(DEFAULT_TARGETS)})")
    parser.add_argument("--config", type=Path,
                        help="helia-aot YAML configuration for every conversion (e.g. optimization knobs)")
    parser.add_argument("--work-dir", type=Path,
                        help="keep build artefacts here (default: a temporary directory, removed)")
    return parser.parse_args(argv)


def _int16_networks(work: Path) -> list[tuple[str, Path]]:
    """The int16 (A16W8) test networks, written as .tflite files into the work directory."""
    from tests.modelgen import int16_models
    folder = work / "int16_models"
    folder.mkdir(parents=True, exist_ok=True)
    models = []
    for name in int16_models.NAMES:
        path = folder / f"int16_{name}.tflite"
        path.write_bytes(int16_models.build(name))
        models.append((path.stem, path))
    return models


def _model_list(args: argparse.Namespace, work: Path) -> list[tuple[str, Path]]:
    models = [] if args.skip_mlperf else [(name, _models_dir() / f"{name}.tflite") for name in MLPERF_MODELS]
    models += [] if args.skip_int16 else _int16_networks(work)
    models += [(path.stem, path.resolve()) for path in args.models]
    names = [name for name, _ in models]
    if len(set(names)) != len(names):
        raise toolchain.BenchError(f"two models share a name in {names}; rename one of the files")
    return models


def _measure(models: list[tuple[str, Path]], backends: list[str], work: Path, start: float,
             config: Path | None = None, targets: tuple[str, ...] = TARGETS,
             speech: bool = False) -> tuple[list[dict], dict | None]:
    """Rows per model and target, and the micro_speech figures (None unless `speech`; measured on the
    first target, the Cortex-M55)."""
    rows: list[dict] = []
    speech_figures = None
    for target in targets:
        target_rows, libraries = _measure_target(models, backends, work / target, start, config, target,
                                                 speech and speech_figures is None)
        rows += target_rows
        if speech and speech_figures is None and libraries:
            speech_figures = micro_speech.measure(work / target, {b: libraries[b, toolchain.SPEED_OPT]
                                                                  for b in backends})
            _log(start, "micro_speech: " + ("error" if "error" in speech_figures else ", ".join(
                f"{b} {f.get('clips', {}).get('yes_1000ms', {}).get('instructions_per_clip', 'error')} "
                "instructions per clip" for b, f in speech_figures["backends"].items())))
    return rows, speech_figures


def _measure_target(models: list[tuple[str, Path]], backends: list[str], work: Path, start: float,
                    config: Path | None, target: str, speech: bool) -> tuple[list[dict], dict]:
    """Rows per model on one target, and the kernel libraries built for it (none when nothing needs them)."""
    core = toolchain.TARGET_CORES[target]
    rows: list[dict] = []
    builds: list[tuple[dict, firmware.ModuleBuild]] = []
    # Conversions first and one at a time, so their wall time is not shared with our compiles.
    for name, path in models:
        row: dict = {"name": name, "model": str(path), "target": target, "core": core.core}
        rows.append(row)
        if not path.is_file():
            row["error"] = f"model file not found: {path} (set HELIA_MODELS_DIR or give the path)"
            continue
        try:
            figures, result = convert.convert(path, work / name / "convert", firmware.PREFIX, target,
                                              config=config)
        except helia_aot.HeliaError as error:
            row["error"] = f"conversion failed: {type(error).__name__}: {error}"
            _log(start, f"{name} ({target}): conversion failed")
            continue
        row["conversion"] = figures
        row["total_macs"] = figures["total_macs"]
        _log(start, f"{name} ({target}): converted in {figures['seconds_median']:.3f} s (median of "
                    f"{convert.RUNS}), arena {figures['scratch_arena_bytes']} B")
        builds.append((row, convert.module_build(name, path, work / name, result)))
    if not builds and not speech:
        return rows, {}

    _log(start, f"{target}: building kernel libraries for {core.core}")
    # The -Os library is for the models' code sizes only.
    libraries = {(kernels.PORTABLE, toolchain.SIZE_OPT): kernels.build(kernels.PORTABLE, toolchain.SIZE_OPT, work,
                                                                       core)} if builds else {}
    for backend in backends:
        libraries[backend, toolchain.SPEED_OPT] = kernels.build(backend, toolchain.SPEED_OPT, work, core)
    _log(start, f"{target}: kernel libraries built: {', '.join(b + o for b, o in libraries)}")

    for row, build in builds:
        label = f"{build.name} ({target})"
        try:
            firmware.write_inputs(build.model_path, build.work_dir / "bench_input.c")
            row["code_size"] = firmware.code_size(build, libraries[kernels.PORTABLE, toolchain.SIZE_OPT])
            _log(start, f"{label}: code size measured")
        except toolchain.BenchError as error:
            row["error"] = str(error)
            _log(start, f"{label}: code size failed")
            continue
        row["backends"] = {}
        for backend in backends:
            try:
                # The module converted for this library, as Bazel converts it for that backend.
                module = convert.for_backend(build, backend, firmware.PREFIX, target, config)
                figures = firmware.instructions(module, libraries[backend, toolchain.SPEED_OPT])
                figures["instructions_per_mac"] = (round(figures["model_run_instructions"] / row["total_macs"], 3)
                                                   if row["total_macs"] else None)
            except (toolchain.BenchError, helia_aot.HeliaError) as error:
                figures = {"error": f"{type(error).__name__}: {error}"}
            row["backends"][backend] = figures
            _log(start, f"{label}: {backend} {figures.get('model_run_instructions', 'error')} instructions")
    return rows, libraries


def main(argv: list[str]) -> int:
    start = time.monotonic()
    args = _parse_args(argv)
    targets = tuple(t for t in TARGETS if t in (args.target or DEFAULT_TARGETS))
    missing = toolchain.missing_tools()
    if missing:
        print(f"error: {', '.join(missing)} not on PATH. Run the benchmark through tools/bench (it uses the "
              "build environment made by tools/bootstrap).", file=sys.stderr)
        return 2
    try:
        ns_root = toolchain.ns_cmsis_nn_root()
        backends = args.backend or ([kernels.PORTABLE] + ([kernels.NS_CMSIS_NN] if ns_root else []))
        if kernels.NS_CMSIS_NN in backends and ns_root is None:
            raise toolchain.BenchError(f"--backend {kernels.NS_CMSIS_NN}: ns-cmsis-nn not configured "
                                       f"(set {toolchain.NS_CMSIS_NN_ENV})")
        speech = not args.skip_micro_speech and micro_speech.available()
        if args.work_dir:
            args.work_dir.mkdir(parents=True, exist_ok=True)
            work = args.work_dir.resolve()
            rows, speech_figures = _measure(_model_list(args, work), backends, work, start, args.config, targets,
                                            speech)
        else:
            with tempfile.TemporaryDirectory(prefix="helia-bench-") as tmp:
                rows, speech_figures = _measure(_model_list(args, Path(tmp)), backends, Path(tmp), start,
                                                args.config, targets, speech)
    except toolchain.BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    elapsed = time.monotonic() - start
    print(table.markdown(rows))
    print(table.notes(rows, ns_root is not None))
    if speech_figures is not None:
        print(micro_speech.markdown(speech_figures))
    elif not args.skip_micro_speech:
        print(f"\nmicro_speech: not measured, TFLM's models are not in {micro_speech.models_dir()} "
              f"(set {micro_speech.TFLM_MODELS_ENV}).")
    print(f"\nWhole run: {elapsed:.1f} s for {len(rows)} model row(s), targets: {', '.join(targets)}, "
          f"backends: {', '.join(backends)}.")
    if args.json:
        data = {"schema": JSON_SCHEMA, "target": targets[0], "targets": list(targets), "backends": backends, "tools": _tool_versions(),
                "method": table.METHOD, "elapsed_seconds": round(elapsed, 1), "models": rows}
        if speech_figures is not None:
            data["micro_speech"] = {**speech_figures, "method": micro_speech.METHOD}
        args.json.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    failed = [row["name"] for row in rows
              if "error" in row or any("error" in f for f in (row.get("backends") or {}).values())]
    if speech_figures is not None and ("error" in speech_figures or any(
            "error" in f or not f["bit_identical_to_tflm"] for f in speech_figures["backends"].values())):
        failed.append("micro_speech")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
