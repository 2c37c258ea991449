#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The hostile reproductions of issue #25, re-measured: each builds its crafted input in a temporary
folder and runs `helia-aot convert` on it in a process of its own, taking that process's CPU seconds
(held to the limit: wall time on a shared machine says little), wall seconds and peak resident set
(VmHWM). Prints a Markdown table: the case, the figures the issue reported before the fix, the
measures and the outcome (the one-line error, or "module written"). The two run-time cases (QUANTIZE
and a hybrid FULLY_CONNECTED fed NaN, infinities and huge values) also compile the module with the
portable kernels under tests/sanitizers.py's flags (float-cast-overflow included), run it on those
inputs and compare the codes with the saturating rule.

    tools/hostile_table.py [--only SUBSTRING]... [--timeout S]     (inside the rootfs venv)

Exits 1 if a conversion took 10 CPU seconds or more, peaked at 1.5 GB or more, printed a traceback,
wrote a module where a refusal was due, refused where a module was due, or changed the user's files."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import sanitizers  # noqa: E402
from tests.e2e import harness  # noqa: E402
from tests.fuzz import hostile  # noqa: E402
from tests.modelgen.builder import ModelBuilder  # noqa: E402
from tests.modelgen.cases import CASES_DIR  # noqa: E402
from tests.modelgen.litert import io_details  # noqa: E402
from tests.unit.test_ops import conv_model  # noqa: E402

SECONDS_LIMIT = 10.0
BYTES_LIMIT = 1.5e9


@dataclass
class Run:
    """What a case hands the measurement: the convert arguments (after `convert`), whether a module is
    the right outcome, and for a written module an optional check returning its outcome text."""

    args: list[str]
    module_expected: bool = False
    check: Callable[[Path], str] | None = None
    after: Callable[[], str] | None = None  # a check of the user's files after the run (the -o cases)


# --------------------------------------------------------------------------- crafted inputs


def _model(work: Path, data: bytes, name: str = "m.tflite") -> str:
    path = work / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return str(path)


def _relu(shape) -> bytes:
    b = ModelBuilder("relu")
    x = b.input("x", shape, scale=0.5, zero_point=0)
    y = b.tensor("y", shape, scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    b.output(y)
    return b.build()


def _small(work: Path) -> str:
    return _model(work, _relu((1, 8)))


def yaml_aliases(work: Path) -> Run:
    """module.prefix: 8 nested levels of 10 aliases (10^8 strings once expanded), about 440 bytes."""
    levels = ["&a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    levels += [f"&a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    text = "module:\n  prefix: [" + ", ".join(levels) + "]\n"
    (work / "c.yaml").write_text(text)
    return Run([_small(work), "-o", str(work / "out"), "--config", str(work / "c.yaml")])


def custom_options(code: str, levels: int, width: int) -> Callable[[Path], Run]:
    def build(work: Path) -> Run:
        data = hostile.custom_operator(code, hostile.expanding_flexbuffer(levels, width))
        return Run([_model(work, data), "-o", str(work / "out")])
    return build


def many_call_once(count: int) -> Callable[[Path], Run]:
    def build(work: Path) -> Run:
        return Run([_model(work, hostile.many_call_once(count)), "-o", str(work / "out")], module_expected=True)
    return build


def shared_tables(field: str, size: int) -> Callable[[Path], Run]:
    def build(work: Path) -> Run:
        return Run([_model(work, hostile.shared_tables(3000, field, size)), "-o", str(work / "out")])
    return build


def live_tensors(count: int) -> Callable[[Path], Run]:
    """`count` RELUs of the input, then CONCATENATIONs of 1,000 of them each (the model's outputs): all
    `count` tensors are live when the first CONCATENATION runs."""
    def build(work: Path) -> Run:
        b = ModelBuilder(f"{count} live")
        x = b.input("x", (1, 4), "int8", 0.5, 0)
        parts = []
        for i in range(count):
            t = b.tensor(f"t{i}", (1, 4), "int8", 0.5, 0)
            b.op("RELU", [x], [t])
            parts.append(t)
        for g in range(0, count, 1000):
            group = parts[g:g + 1000]
            y = b.tensor(f"y{g}", (1, 4 * len(group)), "int8", 0.5, 0)
            b.op("CONCATENATION", group, [y], {"axis": 1})
            b.output(y)
        return Run([_model(work, b.build()), "-o", str(work / "out"), "--kernel_library", "portable"],
                   module_expected=True)
    return build


def unbounded_read(kind: str, where: str) -> Callable[[Path], Run]:
    """/dev/zero or a FIFO no one writes to, as the model, --plan, --config or target.file."""
    def build(work: Path) -> Run:
        if kind == "fifo":
            special = work / f"{where}.fifo"
            os.mkfifo(special)
        else:
            special = Path("/dev/zero")
        out = ["-o", str(work / "out")]
        if where == "model":
            return Run([str(special), *out])
        if where == "plan":
            return Run([_small(work), *out, "--plan", str(special)])
        if where == "config":
            return Run([_small(work), *out, "--config", str(special)])
        (work / "c.yaml").write_text(yaml.safe_dump({"target": {"file": str(special)}}))
        return Run([_small(work), *out, "--config", str(work / "c.yaml")])
    return build


def arena_past_int32(work: Path) -> Run:
    """Two 1.2 GB activations live at once: a 2.4 GB scratch arena."""
    return Run([_model(work, _relu((1, 40000, 30000, 1))), "-o", str(work / "out"), "--target", "corstone300"])


def colliding_memories(work: Path) -> Run:
    custom = {"name": "two", "cpu": "cortex-m55", "capabilities": ["dsp", "mve"],
              "memories": [{"name": "A.B", "size": 1 << 20}, {"name": "A_B", "size": 1 << 20},
                           {"name": "ROM", "size": 1 << 20, "writable": False}],
              "scratch_memory": "A.B", "constant_memory": "ROM"}
    (work / "c.yaml").write_text(yaml.safe_dump({"target": {"name": "two", "custom": custom}}))
    return Run([_small(work), "-o", str(work / "out"), "--config", str(work / "c.yaml")])


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _kept(root: Path, before: dict[str, bytes]) -> Callable[[], str]:
    return lambda: "user's files intact" if _tree(root) == before else "USER'S FILES CHANGED"


def outdir_project(work: Path) -> Run:
    project = work / "project"
    for rel, text in (("src/main.c", "int main(void) { return 0; }\n"), ("include/app.h", "#pragma once\n"),
                      ("test/notes.txt", "keep\n"), ("CMakeLists.txt", "project(app C)\n")):
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    return Run([_small(work), "-o", str(project)], after=_kept(project, _tree(project)))


def outdir_holding_model(work: Path) -> Run:
    out = work / "out"
    model = _model(out, _relu((1, 8)))
    return Run([model, "-o", str(out)], after=_kept(out, _tree(out)))


def outdir_root(work: Path) -> Run:
    before = sorted(os.listdir("/"))
    return Run([_small(work), "-o", "/"],
               after=lambda: "/ unchanged" if sorted(os.listdir("/")) == before else "/ CHANGED")


def trailing_newline(where: str) -> Callable[[Path], Run]:
    def build(work: Path) -> Run:
        out = [_small(work), "-o", str(work / "out")]
        if where == "prefix":
            return Run([*out, "--prefix", "fc\n"])
        if where == "section":
            config = {"memory": {"sections": {"RAM": {"buffers": ".bss.fc\n"}}}}
        else:
            config = {"target": {"name": "board\n", "custom": {
                "name": "board\n", "cpu": "cortex-m55", "capabilities": ["dsp", "mve"],
                "memories": [{"name": "RAM", "size": 1 << 20}, {"name": "ROM", "size": 1 << 20, "writable": False}],
                "scratch_memory": "RAM", "constant_memory": "ROM"}}}
        (work / "c.yaml").write_text(yaml.safe_dump(config))
        return Run([*out, "--config", str(work / "c.yaml")])
    return build


def huge_pooling_window(op: str) -> Callable[[Path], Run]:
    def build(work: Path) -> Run:
        b = ModelBuilder("huge window")
        x = b.input("x", (1, 1, 1, 4), "int8", 0.05, 3)
        y = b.tensor("y", (1, 1, 1, 4), "int8", 0.05, 3)
        b.op(op, [x], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1, "filter_width": 1 << 30,
                            "filter_height": 1 << 30})
        b.output(y)
        return Run([_model(work, b.build()), "-o", str(work / "out")])
    return build


def plan_field(edit: str) -> Callable[[Path], Run]:
    """A plan written by a conversion, one field then given a value of the wrong JSON type."""
    def build(work: Path) -> Run:
        model = _model(work, conv_model().build())
        subprocess.run([sys.executable, "-m", "helia_aot", "convert", model, "-o", str(work / "first"),
                        "--prefix", "p"], check=True, capture_output=True, cwd=REPO)
        plan = json.loads((work / "first" / "p_plan.json").read_text())
        if edit == "schema_version":
            plan["schema_version"] = True
        elif edit == "kernel":
            plan["operators"][0]["kernel"] = "arm_x"
        else:
            plan["tensors"][0]["id"] = ["a", "b"]
        (work / "plan.json").write_text(json.dumps(plan))
        return Run([model, "-o", str(work / "out"), "--prefix", "p", "--plan", str(work / "plan.json")])
    return build


def sparse(work: Path) -> Run:
    return Run([_model(work, hostile.sparse_weights()), "-o", str(work / "out")])


def squeeze(work: Path) -> Run:
    b = ModelBuilder("squeeze")
    x = b.input("x", (1, 4), "float32")
    y = b.tensor("y", (4,), "float32")
    b.op("SQUEEZE", [x], [y], {"squeeze_dims": [9]})
    b.output(y)
    return Run([_model(work, b.build()), "-o", str(work / "out")])


def expand_dims(work: Path) -> Run:
    b = ModelBuilder("expand_dims")
    x = b.input("x", (1, 4), "float32")
    y = b.tensor("y", (1, 4, 1), "float32")
    b.op("EXPAND_DIMS", [x, b.const("axis", np.array([(1 << 31) - 1]), "int32")], [y])
    b.output(y)
    return Run([_model(work, b.build()), "-o", str(work / "out")])


# --------------------------------------------------------------------------- run-time inputs

_DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include "h_model.h"

static uint8_t storage[H_ARENA_BYTES + 2 * H_ARENA_ALIGNMENT];

int main(void)
{
    h_model_context_t ctx;
    uint8_t *aligned = storage + (H_ARENA_ALIGNMENT - ((uintptr_t)storage % H_ARENA_ALIGNMENT)) % H_ARENA_ALIGNMENT;
    if (h_model_bind_arena(&ctx, aligned, H_ARENA_BYTES) != H_STATUS_OK || h_model_init(&ctx) != H_STATUS_OK)
        return 2;
    int32_t in_bytes = h_model_input_bytes(0);
    if (fread(h_model_input(&ctx, 0), 1, (size_t)in_bytes, stdin) != (size_t)in_bytes)
        return 3;
    if (h_model_run(&ctx) != H_STATUS_OK)
        return 4;
    fwrite(h_model_output(&ctx, 0), 1, (size_t)h_model_output_bytes(0), stdout);
    return 0;
}
"""
# Values no seeded draw gives, in the order the run-time cases feed them.
_EXTREMES = np.array([-2.0 ** 31, np.nan, 1e30, -np.inf, np.inf, -1e30, 2.0 ** 31, float(np.finfo(np.float32).max)],
                     np.float32)


def _run_module(out: Path, values: np.ndarray) -> np.ndarray:
    """The module in `out` (prefix h, portable kernels, caller arena) compiled with the sanitizers and
    run once on `values` (its one float input, repeated to size); its one output's bytes."""
    kernels = REPO / "kernels" / "portable"
    (out.parent / "driver.c").write_text(_DRIVER)
    exe = out.parent / "driver"
    sources = [str(p) for p in sorted((out / "src").glob("*.c"))] + [str(out.parent / "driver.c")]
    sources += [str(p) for p in sorted((kernels / "src").rglob("*.c"))]
    defines = [f"-D{d}" for d in harness.LIBRARY_DEFINES]
    subprocess.run([harness.HOST_CC, *harness.WARNINGS, *sanitizers.SANITIZERS, "-O1", *defines, *sources,
                    "-I", str(out / "include"), "-I", str(kernels / "include"), "-I", str(kernels / "src"),
                    "-o", str(exe), "-lm"], check=True, capture_output=True, text=True, timeout=600)
    proc = subprocess.run([str(exe)], input=values.tobytes(), capture_output=True, timeout=60,
                          env={**os.environ, **harness.SANITIZER_ENV})
    if proc.returncode != 0 or any(m in proc.stderr.decode(errors="replace") for m in harness.SANITIZER_MARKERS):
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
    return np.frombuffer(proc.stdout, np.uint8)


def quantize_runtime(work: Path) -> Run:
    """Saturating codes: NaN gives the zero point, the rest the nearest end of int8."""
    model = harness.case_model(CASES_DIR / "quantize_float_to_int8.yaml")
    (info,) = model.input_infos
    _, zero_point = io_details(model.model_bytes)[1][0]["quantization"]
    expected = [-128, int(zero_point), 127, -128, 127, -128, 127, 127]

    def check(out: Path) -> str:
        values = np.resize(_EXTREMES, info.shape).astype(np.float32)
        codes = _run_module(out, values).view(np.int8)[:len(_EXTREMES)].tolist()
        verdict = "correct module" if codes == expected else f"WRONG (expected {expected})"
        return f"{verdict}: codes {codes}, UBSan (float-cast-overflow) clean"
    return Run([_model(work, model.model_bytes), "-o", str(work / "out"), "--prefix", "h", "--kernel_library",
                "portable", "--config", _caller_arena(work)], module_expected=True, check=check)


def hybrid_runtime(work: Path) -> Run:
    model = harness.case_model(CASES_DIR / "fully_connected_hybrid_per_tensor.yaml")
    (info,) = model.input_infos

    def check(out: Path) -> str:
        values = np.resize(_EXTREMES, info.shape).astype(np.float32)
        got = _run_module(out, values).view(np.float32)
        return f"module runs: {got.size} float outputs, UBSan (float-cast-overflow) clean"
    return Run([_model(work, model.model_bytes), "-o", str(work / "out"), "--prefix", "h", "--kernel_library",
                "portable", "--config", _caller_arena(work)], module_expected=True, check=check)


def _caller_arena(work: Path) -> str:
    (work / "caller.yaml").write_text("module:\n  arena: caller\n")
    return str(work / "caller.yaml")


# --------------------------------------------------------------------------- the table

CASES: list[tuple[str, str, Callable[[Path], Run]]] = [
    ("YAML aliases: module.prefix 8 levels of 10", "55 s, 2.9 GB, traceback", yaml_aliases),
    ("custom options, SignalWindow: 20 levels of 2 sharing one child", "33 s, refused",
     custom_options("SignalWindow", 20, 2)),
    ("custom options, SignalWindow: 30 levels of 2", "hours", custom_options("SignalWindow", 30, 2)),
    ("custom options, SignalWindow: 14 levels of 3 (4.8 M values)", "-", custom_options("SignalWindow", 14, 3)),
    ("custom options, unknown operator: 30 levels of 2", "hours", custom_options("NotAnOperator", 30, 2)),
    ("1,000 CALL_ONCE", "75 s", many_call_once(1000)),
    ("2,000 CALL_ONCE", "over 200 s", many_call_once(2000)),
    ("3,000 tensors sharing one table, 1 MB buffer", "2.98 GB peak", shared_tables("buffer", 1 << 20)),
    ("3,000 tensors sharing one table, 1 M-character name", "copied per tensor", shared_tables("name", 1 << 20)),
    ("3,000 tensors sharing one table, 256 K dimensions", "copied per tensor", shared_tables("shape", 1 << 18)),
    ("planner: 1,000 tensors live", "-", live_tensors(1000)),
    ("planner: 6,000 tensors live", "40 s", live_tensors(6000)),
    ("planner: 20,000 tensors live", "-", live_tensors(20000)),
    *[(f"{'/dev/zero' if kind == 'zero' else 'FIFO'} as {where}",
       ("reads until out of memory" if kind == "zero" else ("hangs" if where == "plan" else "-")),
       unbounded_read(kind, where))
      for kind in ("zero", "fifo") for where in ("model", "plan", "config", "target.file")],
    ("scratch arena past 2^31 (2.4 GB)", "accepted, int32_t offsets wrapped", arena_past_int32),
    ("memories A.B and A_B", "one C array for both, 255 codes off", colliding_memories),
    ("-o over a project folder (src/main.c, include/app.h, test/, CMakeLists.txt)", "all four deleted, exit 0",
     outdir_project),
    ("-o over the folder holding the input model", "model deleted", outdir_holding_model),
    ("-o /", "module written into / before refusing", outdir_root),
    ("--prefix 'fc\\n'", "file names with a newline, C that does not compile", trailing_newline("prefix")),
    ("section name '.bss.fc\\n'", "accepted", trailing_newline("section")),
    ("custom target name 'board\\n'", "accepted, CMake export unparsable", trailing_newline("target")),
    ("1x1 input, 2^30 AVERAGE_POOL_2D window", "converts, model_run never returns",
     huge_pooling_window("AVERAGE_POOL_2D")),
    ("1x1 input, 2^30 MAX_POOL_2D window", "converts, model_run never returns", huge_pooling_window("MAX_POOL_2D")),
    ("QUANTIZE float32 -> int8 of -2^31, NaN, 1e30, -inf, inf, -1e30, 2^31, FLT_MAX", "UBSan: signed overflow",
     quantize_runtime),
    ("hybrid FULLY_CONNECTED on the same values", "UBSan on inf", hybrid_runtime),
    ("plan: schema_version true", "accepted as 1", plan_field("schema_version")),
    ("plan: an operator's kernel a string", "InternalError (exit 3)", plan_field("kernel")),
    ("plan: a tensor id a list", "InternalError (exit 3)", plan_field("id")),
    ("sparse weights, dense byte count", "read as dense", sparse),
    ("SQUEEZE squeeze_dims [9] on rank 2", "accepted", squeeze),
    ("EXPAND_DIMS axis 2^31-1", "accepted", expand_dims),
]


# The conversion's process reports its own peak resident set (VmHWM, which exec resets) as it exits:
# wait4's ru_maxrss would carry over the peak of this (larger) process that forked it.
_CONVERT = """
import atexit, resource, sys
def _peak(path=sys.argv[1]):
    with open("/proc/self/status") as f:
        kib = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    with open(path, "w") as f:
        f.write(f"{kib} {usage.ru_utime + usage.ru_stime}")
atexit.register(_peak)
sys.argv = ["helia-aot", *sys.argv[2:]]
from helia_aot.cli import run
run()
"""


def _measure(args: list[str], cwd: Path, timeout: float
             ) -> tuple[float, float | None, int | None, int | None, str]:
    """(wall seconds, CPU seconds and peak RSS bytes or None when killed, exit status or None when
    killed at `timeout`, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    err, peak_file = cwd / "stderr.txt", cwd / "peak.txt"
    start = time.monotonic()
    with open(err, "wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-c", _CONVERT, str(peak_file), "convert", *args], cwd=cwd, env=env,
                                stdout=subprocess.DEVNULL, stderr=stderr, stdin=subprocess.DEVNULL)
        try:
            status = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            status = None
    seconds = time.monotonic() - start
    cpu = peak = None
    if peak_file.exists():
        kib, cpu_text = peak_file.read_text().split()
        peak, cpu = int(kib) * 1024, float(cpu_text)
    return seconds, cpu, peak, status, err.read_text(errors="replace")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tools/hostile_table.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", default=[], help="cases whose name holds this text")
    parser.add_argument("--timeout", type=float, default=60.0, help="kill a conversion after S seconds (60)")
    args = parser.parse_args(argv)
    print("| case | before (issue) | CPU | wall | peak RSS | outcome |")
    print("|---|---|---|---|---|---|")
    bad = 0
    for name, before, build in CASES:
        if args.only and not any(o in name for o in args.only):
            continue
        with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
            work = Path(tmp)
            run = build(work)
            seconds, cpu, peak, status, stderr = _measure(run.args, work, args.timeout)
            lines = [line for line in stderr.splitlines() if line.strip()]
            if status is None:
                outcome, ok = f"KILLED after {args.timeout:.0f} s", False
            elif "Traceback" in stderr:
                outcome, ok = "TRACEBACK: " + (lines[-1] if lines else ""), False
            elif status == 0:
                outcome, ok = "module written", run.module_expected
                if run.check is not None:
                    try:
                        outcome = run.check(work / "out")
                    except Exception as exc:  # a failed run-time check is this row's outcome
                        outcome, ok = f"RUN FAILED: {exc}", False
                    ok = ok and not outcome.startswith(("WRONG", "RUN FAILED"))
            else:
                outcome = (lines[-1] if lines else f"exit {status}, no message").removeprefix("error: ")
                ok = not run.module_expected and len(lines) == 1 and status in (1, 2)
            if run.after is not None:
                kept = run.after()
                outcome += f"; {kept}"
                ok = ok and "CHANGED" not in kept
            # CPU seconds against the limit: wall time on a machine shared with other jobs says little.
            ok = ok and cpu is not None and cpu < SECONDS_LIMIT and peak is not None and peak < BYTES_LIMIT
            bad += not ok
            cell = outcome.replace("|", "\\|").replace("\n", " ")
            memory = "-" if peak is None else f"{peak / 1e6:.0f} MB"
            used = "-" if cpu is None else f"{cpu:.2f} s"
            print(f"| {name} | {before} | {used} | {seconds:.2f} s | {memory} | {cell}{'' if ok else ' **(!)**'} |",
                  flush=True)
    print(f"\n{bad} case(s) over budget or with the wrong outcome (limits: {SECONDS_LIMIT:.0f} s, "
          f"{BYTES_LIMIT / 1e9:.1f} GB)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
