# SPDX-License-Identifier: Apache-2.0
"""Convert every model the project verifies into one folder, so that two revisions of the compiler
can be compared byte for byte (a behaviour-preserving change must leave every file alone).

    python3 -m tools.snapshot_modules OUTDIR [--only SUBSTRING] [--jobs N]
    diff -r OUTDIR_BEFORE OUTDIR_AFTER

What it converts: every e2e case (tests/e2e/cases) for host and corstone300; the MLPerf Tiny models
(HELIA_MODELS_DIR, else ../shared/models/mlperf-tiny) for host, corstone300 and apollo4p_evb with both
kernel libraries, with golden test data and the CMake export; the int16 and stateful test networks;
the TFLM models beside them (micro_speech's two modules, person_detect); the int8 MLPerf models with
placement rules, a stream pool and each optimization knob (CONFIGS). A conversion that fails
writes its one-line error as `error.txt`, so a changed refusal shows up in the diff too.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import pathlib
import sys
import traceback

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

MLPERF_TARGETS = ("host", "corstone300", "apollo4p_evb")
LIBRARIES = ("portable", "ns_cmsis_nn")
CASE_TARGETS = ("host", "corstone300")
TFLM_MODELS = ("audio_preprocessor_int8", "micro_speech_quantized", "person_detect", "micro_speech_lstm")
# Configurations beyond the defaults, for the int8 MLPerf models on corstone300: placement (as
# tests/e2e/test_placement.py configures it) and the optimization knobs.
CONFIGURED_MODELS = ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8")
CONFIGS = {
    "staged": {"memory": {"tensors": [{"type": "constant", "attributes": {"constant_destination_memory": "DTCM"}}]}},
    "streamed": {"memory": {"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
                            "stream_pool": {"memory": "DTCM", "bytes": 65536}}},
    "streamed_dma": {"memory": {"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
                                "stream_pool": {"memory": "DTCM", "bytes": 65536, "engine": "dma"}}},
    "activations": {"memory": {"tensors": [{"type": "activation", "attributes": {"memory": "SRAM"}},
                                           {"type": "output", "attributes": {"memory": "SRAM"}}]}},
    "goal_size": {"optimization": {"goal": "size"}},
    "goal_latency": {"optimization": {"goal": "latency"}},
    "no_rewrites": {"optimization": {"rewrites": False}},
    "specialized": {"optimization": {"kernel": "specialized"}},
    "caller_arena": {"module": {"arena": "caller"}},
}


def _models_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("HELIA_MODELS_DIR", REPO.parent / "shared" / "models" / "mlperf-tiny"))


def jobs() -> list[tuple[str, str, dict]]:
    """(name, kind, convert arguments) of every conversion, the model read lazily by `run_one`."""
    out = []
    for path in sorted((REPO / "tests" / "e2e" / "cases").glob("*.yaml")):
        for target in CASE_TARGETS:
            out.append((f"case/{path.stem}/{target}", "case", dict(path=str(path), target=target)))
    models = _models_dir()
    for path in sorted(models.glob("*.tflite")):
        for target in MLPERF_TARGETS:
            for library in LIBRARIES:
                out.append((f"mlperf/{path.stem}/{target}-{library}", "file",
                            dict(path=str(path), target=target, kernel_library=library, with_test_data=True,
                                 module_type="cmake", prefix=path.stem.split("_")[0])))
    for name in CONFIGURED_MODELS:
        path = models / f"{name}.tflite"
        for config_name, config in CONFIGS.items():
            out.append((f"configured/{name}/{config_name}", "file",
                        dict(path=str(path), target="corstone300", config=config)))
    for name in TFLM_MODELS:
        path = models.parent / "tflm" / f"{name}.tflite"
        if path.is_file():
            for target in ("host", "corstone300"):
                out.append((f"tflm/{name}/{target}", "file", dict(path=str(path), target=target)))
    from tests.modelgen import int16_models, stateful
    for name in int16_models.NAMES:
        for target in CASE_TARGETS:
            out.append((f"int16/{name}/{target}", "int16", dict(name=name, target=target)))
    for name in stateful.NAMES:
        for target in CASE_TARGETS:
            out.append((f"stateful/{name}/{target}", "stateful", dict(name=name, target=target)))
    return out


def run_one(root: str, name: str, kind: str, args: dict) -> str:
    import helia_aot
    out = pathlib.Path(root) / name
    args = dict(args)
    if kind == "case":
        from tests.modelgen.cases import build_case_model, load_case
        model = build_case_model(load_case(pathlib.Path(args.pop("path"))))
    elif kind == "file":
        model = pathlib.Path(args.pop("path")).read_bytes()
    elif kind == "int16":
        from tests.modelgen import int16_models
        model = int16_models.build(args.pop("name"))
    else:
        from tests.modelgen import stateful
        model = stateful.build(args.pop("name"))
    args.setdefault("prefix", "m")
    try:
        helia_aot.convert(model, out, **args)
    except helia_aot.HeliaError as exc:
        out.mkdir(parents=True, exist_ok=True)
        (out / "error.txt").write_text(f"{type(exc).__name__}: {exc}\n", encoding="utf-8")
    except Exception:  # an internal error is a finding too: keep it in the snapshot
        out.mkdir(parents=True, exist_ok=True)
        (out / "error.txt").write_text(traceback.format_exc().splitlines()[-1] + "\n", encoding="utf-8")
    return name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--only", default="", help="convert only jobs whose name holds this text")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ns = parser.parse_args()
    todo = [j for j in jobs() if ns.only in j[0]]
    root = pathlib.Path(ns.outdir).resolve()
    root.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ProcessPoolExecutor(ns.jobs) as pool:
        futures = [pool.submit(run_one, str(root), *j) for j in todo]
        for done, f in enumerate(concurrent.futures.as_completed(futures), 1):
            f.result()
            if done % 200 == 0:
                print(f"snapshot: {done}/{len(todo)}", flush=True)
    print(f"snapshot: {len(todo)} conversions in {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
