# SPDX-License-Identifier: Apache-2.0
"""The fuzz campaign: damaged models through helia_aot.convert, in process, and what must hold.

Every outcome is a typed refusal (a HeliaError subclass with a message, no output directory left
behind) or a conversion whose C files compile with -Werror on the host compiler; one successful
conversion in SAMPLE_ONE_IN is also built and run on the host under ASan/UBSan (tests/e2e/harness.py
builds and runs it). Each conversion runs under a time and a memory budget the harness enforces: past
HANG_SECONDS of CPU time (or WALL_FACTOR times that of wall time, blocked) it is a hang; its address
space may grow by MEMORY_BUDGET at most (RLIMIT_AS, lowered for the conversion only), past that it is
over_budget.

A case is (model name, mutation class, seed): everything about it (the damage, the target, whether
it is run) follows from those three, so `Case.replay_id` replays it exactly (tools/fuzz --replay).
Used by tests/fuzz/test_fuzz.py (the CI run) and tools/fuzz.py (any number)."""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import hashlib
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np

import helia_aot
from tests.fuzz import mutations

REPO = Path(__file__).resolve().parents[2]


def _library_defines() -> list[str]:
    """The float switches both kernel libraries hand to the modules compiled against them."""
    from tests.e2e import harness
    return [f"-D{d}" for d in harness.LIBRARY_DEFINES]
PORTABLE_INCLUDE = REPO / "kernels" / "portable" / "include"
# A module for a core with MVE may call our Helium kernels (helia_helium.h) beside either library.
HELIUM_INCLUDE = REPO / "kernels" / "helium" / "include"
# The shared models (every .tflite below it is fuzzed); the variable overrides ../shared/models.
MODELS_ENV = "HELIA_FUZZ_MODELS_DIR"
HANG_SECONDS = 10.0  # of CPU time (see deadline)
WALL_FACTOR = 6  # a conversion blocked for HANG_SECONDS x this of wall time is a hang too
MEMORY_BUDGET = 3 << 29  # 1.5 GiB of address space on top of what the worker held before the conversion
SAMPLE_ONE_IN = 50
TARGETS = ("host", "corstone300")
CC = "gcc"
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
COMPILE_TIMEOUT_S = 120
# A worker that reports nothing for this long is stuck outside Python (the alarm could not fire). Past
# the longest a case may take legitimately: the sanitizer build and run may take 300 s each (tests/e2e).
STUCK_SECONDS = 900
_CURRENT = "current_case"  # each worker's folder holds the replay id of the case it is running
PREFIX = "e2e"  # the host harness's prefix (tests/e2e/c/host_harness.c)

CONVERTED, RAN = "converted", "converted+ran"
# A module that fails to compile with the portable kernels' headers only because it uses ns-cmsis-nn
# entries or types they do not declare yet (work in progress there, not the damage's doing), and
# compiles with ns-cmsis-nn's own headers (when HELIA_NS_CMSIS_NN_DIR is set): reported apart.
KERNEL_MISSING = "portable_kernel_missing"
NS_CMSIS_NN_ENV = "HELIA_NS_CMSIS_NN_DIR"
# Failure kinds: anything else than a typed refusal or a module that compiles (and runs clean).
FAILURES = ("exception", "hang", "over_budget", "partial_output", "empty_message", "compile_error", "sanitizer",
            "run_error")


@dataclasses.dataclass(frozen=True)
class Case:
    model: str
    mutation: str
    seed: int

    @property
    def replay_id(self) -> str:
        return f"{self.model}|{self.mutation}|{self.seed}"

    @staticmethod
    def parse(text: str) -> "Case":
        model, mutation, seed = text.strip().rsplit("|", 2)
        return Case(model, mutation, int(seed))


@dataclasses.dataclass
class Outcome:
    case: Case
    result: str  # CONVERTED, RAN, a HeliaError class name, or one of FAILURES
    detail: str = ""
    seconds: float = 0.0  # the conversion alone

    @property
    def failed(self) -> bool:
        return self.result in FAILURES


# --------------------------------------------------------------------------- the models


def shared_models_dir() -> Path | None:
    if os.environ.get(MODELS_ENV):
        return Path(os.environ[MODELS_ENV])
    default = REPO.parent / "shared" / "models"
    if default.is_dir():
        return default
    # Bazel passes HELIA_MODELS_DIR (the MLPerf Tiny folder); its parent holds the other sets.
    mlperf = os.environ.get("HELIA_MODELS_DIR")
    return Path(mlperf).parent if mlperf else None


def corpus(models_dir: Path | None = None) -> dict[str, bytes]:
    """Every .tflite under the shared models folder ("shared/<path>") and the test builder's models
    ("modelgen/...": the single-operator cases, the int16 networks, the stateful models and the KWS
    model)."""
    from tests.modelgen import int16_models, stateful
    from tests.modelgen.cases import all_case_paths, build_case_model, load_case
    models: dict[str, bytes] = {}
    folder = models_dir if models_dir is not None else shared_models_dir()
    if folder is not None and folder.is_dir():
        for path in sorted(folder.rglob("*.tflite")):
            models[f"shared/{path.relative_to(folder)}"] = path.read_bytes()
    models["modelgen/kws"] = (REPO / "models" / "kws.tflite").read_bytes()
    for path in all_case_paths():
        models[f"modelgen/case/{path.stem}"] = build_case_model(load_case(path))
    for name in int16_models.NAMES:
        models[f"modelgen/int16/{name}"] = int16_models.build(name)
    for name in stateful.NAMES:
        models[f"modelgen/stateful/{name}"] = stateful.build(name)
    return models


def plan_cases(models: dict[str, bytes], n: int, seed: int, classes=mutations.CLASSES) -> list[Case]:
    """n cases, the mutation classes in turn, half on the shared models and half on the builder's."""
    master = random.Random(seed)
    shared = sorted(m for m in models if m.startswith("shared/"))
    builder = sorted(m for m in models if not m.startswith("shared/"))
    cases = []
    for i in range(n):
        pool = shared if shared and (not builder or master.random() < 0.5) else builder
        cases.append(Case(master.choice(pool), classes[i % len(classes)], master.getrandbits(40)))
    return cases


def damaged(models: dict[str, bytes], case: Case) -> tuple[Case, bytes]:
    """The case's damaged model. When the model has nothing the mutation edits, the case moves on to
    another model of the same pool, derived from its seed; the returned case is the one made."""
    for _ in range(100):
        try:
            return case, mutations.mutate(models[case.model], case.mutation, random.Random(case.seed))
        except mutations.NotApplicable:
            rng = random.Random(case.seed)
            pool = sorted(m for m in models if m.startswith("shared/") == case.model.startswith("shared/"))
            case = Case(rng.choice(pool), case.mutation, rng.getrandbits(40))
    raise RuntimeError(f"no model takes mutation {case.mutation}")


def decisions(case: Case) -> tuple[str, bool]:
    """The case's target and whether a successful conversion is also run under the sanitizers."""
    rng = random.Random(case.seed ^ 0x5EED)
    return rng.choice(TARGETS), rng.randrange(SAMPLE_ONE_IN) == 0


# --------------------------------------------------------------------------- one case


class Hang(BaseException):
    """The conversion ran past its budget (a BaseException so no `except Exception` swallows it)."""


@contextlib.contextmanager
def deadline(seconds: float):
    """`seconds` of the process's CPU time (ITIMER_PROF: the work the input caused, whatever else the
    machine runs; a wall-clock budget turns a loaded machine's slowness into hangs), and
    WALL_FACTOR x `seconds` of wall time for a conversion blocked without using CPU (a read that
    never returns)."""
    def expire(signum, frame):
        raise Hang("CPU" if signum == signal.SIGPROF else "wall")
    previous = {s: signal.signal(s, expire) for s in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for s, handler in previous.items():
            signal.signal(s, handler)


def _address_space() -> int:
    """The process's current address space (virtual size), in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


@contextlib.contextmanager
def memory_budget(extra: int):
    """The address space may grow by `extra` bytes while the block runs (an allocation past it raises
    MemoryError); the soft limit is restored after, so compilers and sanitizer runs are not bound."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space() + extra
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    last = frames[-1] if frames else None
    place = f" at {Path(last.filename).name}:{last.lineno} ({last.name})" if last else ""
    return f"{type(exc).__name__}: {str(exc)[:300]}{place}"


class Runner:
    """Runs cases in one process: converts, checks a refusal's traces, compiles (each distinct file
    once), and builds and runs the sampled modules."""

    def __init__(self, models: dict[str, bytes], work: Path, sanitizer_library=None, run_all: bool = False):
        self.models = models
        self.work = work
        self.library = sanitizer_library  # a tests.e2e.harness.KernelLibrary built with ASan/UBSan
        self.run_all = run_all  # every successful conversion runs under the sanitizers (replays)
        self.compiled: set[str] = set()
        self.plans: dict[tuple[str, str], str] = {}  # (model, target) -> the plan its conversion writes

    def run(self, case: Case) -> Outcome:
        case, data = damaged(self.models, case)
        target, sample = decisions(case)
        case_dir = Path(tempfile.mkdtemp(prefix="case-", dir=self.work))
        try:
            return self._run(case, data, target, sample, case_dir)
        finally:
            shutil.rmtree(case_dir, ignore_errors=True)

    def side_files(self, case: Case, target: str, case_dir: Path) -> dict[str, Path]:
        """The hostile configuration or plan a side-file class hands convert (tests/fuzz/mutations.py)."""
        if case.mutation not in mutations.SIDE_FILES:
            return {}
        inputs = case_dir / _INPUTS
        inputs.mkdir()
        rng = random.Random(case.seed)
        if case.mutation == "hostile_yaml":
            path = inputs / "config.yaml"
            path.write_text(mutations.hostile_yaml(rng))
            return {"config": path}
        path = inputs / "plan.json"
        path.write_text(mutations.hostile_plan(self.plan_of(case.model, target), rng))
        return {"plan": path}

    def plan_of(self, model: str, target: str) -> str:
        """The plan the undamaged model's conversion writes ("{}" when it is refused)."""
        if (model, target) not in self.plans:
            out = Path(tempfile.mkdtemp(prefix="plan-", dir=self.work))
            try:
                helia_aot.convert(self.models[model], out / "module", prefix=PREFIX, target=target)
                self.plans[model, target] = (out / "module" / f"{PREFIX}_plan.json").read_text()
            except helia_aot.HeliaError:
                self.plans[model, target] = "{}"
            finally:
                shutil.rmtree(out, ignore_errors=True)
        return self.plans[model, target]

    def _run(self, case: Case, data: bytes, target: str, sample: bool, case_dir: Path) -> Outcome:
        out = case_dir / "module"
        files = self.side_files(case, target, case_dir)
        start = time.perf_counter()
        try:
            with deadline(HANG_SECONDS), memory_budget(MEMORY_BUDGET):
                helia_aot.convert(data, out, prefix=PREFIX, target=target, **files)
        except helia_aot.HeliaError as exc:
            seconds = time.perf_counter() - start
            if not str(exc).strip(" ."):
                return Outcome(case, "empty_message", type(exc).__name__, seconds)
            left = sorted(p.name for p in case_dir.iterdir() if p.name != _INPUTS)
            if left:
                return Outcome(case, "partial_output", f"{type(exc).__name__} left {left}", seconds)
            return Outcome(case, type(exc).__name__, str(exc)[:300], seconds)
        except Hang as exc:
            budget = (f"{HANG_SECONDS:g} s of CPU" if exc.args == ("CPU",)
                      else f"{HANG_SECONDS * WALL_FACTOR:g} s of wall time")
            return Outcome(case, "hang", f"conversion ran past {budget}", time.perf_counter() - start)
        except MemoryError:
            return Outcome(case, "over_budget", f"conversion grew its address space past {MEMORY_BUDGET >> 20} MiB",
                           time.perf_counter() - start)
        except Exception as exc:  # noqa: BLE001 - every other exception is what the campaign looks for
            return Outcome(case, "exception", _where(exc), time.perf_counter() - start)
        seconds = time.perf_counter() - start
        problem = self.compile(out, data)
        if problem:
            missing = _missing_api(problem)
            if not missing:
                return Outcome(case, "compile_error", problem[:1500], seconds)
            ns_root = os.environ.get(NS_CMSIS_NN_ENV)
            if not ns_root:
                return Outcome(case, KERNEL_MISSING, ", ".join(sorted(missing)) + " (not compiled against "
                               f"ns-cmsis-nn: {NS_CMSIS_NN_ENV} unset)", seconds)
            # ns-cmsis-nn has no Signal kernels: helia_signal.h is ours, searched after its headers.
            problem = self.compile(out, data, (Path(ns_root) / "Include", PORTABLE_INCLUDE))
            if problem:
                return Outcome(case, "compile_error", "with ns-cmsis-nn's headers: " + problem[:1500], seconds)
            return Outcome(case, KERNEL_MISSING, ", ".join(sorted(missing)), seconds)
        if (sample or self.run_all) and self.library is not None:
            return self.sanitizer_run(case, data, target, case_dir, seconds, files)
        return Outcome(case, CONVERTED, target, seconds)

    def compile(self, module: Path, data: bytes, kernel_includes: tuple[Path, ...] = (PORTABLE_INCLUDE,)) -> str:
        """Each C file with -Werror; the compiler's complaints, or "" (a file identical to one already
        compiled, apart from the model's hash in its header comment, is not compiled again)."""
        sha = hashlib.sha256(data).hexdigest()
        headers = b"".join(p.read_bytes() for p in sorted((module / "include").glob("*.h")))
        for source in sorted((module / "src").glob("*.c")):
            text = str(kernel_includes).encode() + headers + source.read_bytes()
            key = hashlib.sha256(text.replace(sha.encode(), b"")).hexdigest()
            if key in self.compiled:
                continue
            includes = [flag for d in (module / "include", *kernel_includes, HELIUM_INCLUDE) for flag in ("-I", str(d))]
            cmd = [CC, *CFLAGS, *_library_defines(), *includes, "-c", str(source), "-o", str(module.parent / "check.o")]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                return f"{source.name}: compiler ran past {COMPILE_TIMEOUT_S} s"
            if proc.returncode != 0:
                return f"{source.name}: {proc.stderr.strip()}"
            self.compiled.add(key)
        return ""

    def sanitizer_run(self, case: Case, data: bytes, target: str, case_dir: Path, seconds: float,
                      files: dict[str, Path] | None = None) -> Outcome:
        from tests.e2e import harness
        module = case_dir / "module"
        if target != "host":
            module = case_dir / "host_module"
            files = {k: v for k, v in (files or {}).items() if k != "plan"}  # a plan names its target
            try:
                with deadline(HANG_SECONDS), memory_budget(MEMORY_BUDGET):
                    helia_aot.convert(data, module, prefix=PREFIX, target="host", **files)
            except helia_aot.HeliaError as exc:  # the same model refused for host only: say so
                return Outcome(case, "run_error", f"converts for {target} but not for host: {exc}", seconds)
        try:
            exe = harness.build_host_executable(module, self.library, case_dir / "module_asan")
            harness.run_host_executable(exe, _model_under_test(case, data))
        except harness.SanitizerError as exc:
            return Outcome(case, "sanitizer", str(exc)[:1500], seconds)
        except harness.E2EError as exc:
            return Outcome(case, "run_error", str(exc)[:1500], seconds)
        return Outcome(case, RAN, target, seconds)


_INPUTS = "inputs"  # the side files' folder in a case's folder (not a conversion's output)

_UNDECLARED = re.compile(r"error: (?:implicit declaration of function|unknown type name) [‘'`]"
                         r"((?:arm|cmsis_nn)_\w+)[’'`]")


def _missing_api(compiler_output: str) -> set[str]:
    """The ns-cmsis-nn functions and types the compiler found undeclared that the portable kernels'
    headers indeed do not declare."""
    names = set(_UNDECLARED.findall(compiler_output))
    declared = "".join(p.read_text() for p in PORTABLE_INCLUDE.glob("*.h"))
    return {n for n in names if not re.search(rf"\b{n}\b", declared)}


def _declared_ranges(case: Case) -> dict[str, tuple[int, int]]:
    """The value intervals a test-builder case declares for its integer inputs (indices, axes): a
    module refuses an index out of range at run time (a status, as TFLM does), which is no failure."""
    from tests.modelgen.cases import all_case_paths, integer_sample_ranges, load_case
    paths = {f"modelgen/case/{path.stem}": path for path in all_case_paths()}  # as corpus() names them
    return integer_sample_ranges(load_case(paths[case.model])) if case.model in paths else {}


def _model_under_test(case: Case, data: bytes):
    """The harness's view of a damaged model: I/O from helia_aot's own front end (LiteRT's
    interpreter need not accept the model), two seeded samples: full range, except for the integer
    inputs whose case declares their values (_declared_ranges)."""
    from helia_aot.lowering import verifier
    from helia_aot.frontend import litert, resources
    from tests.e2e import harness
    model = litert.parse(data)
    graph, _ = verifier.verify(resources.resolve(model.graph(), model))  # the I/O convert saw
    infos = [[harness.TensorInfo(graph.tensors[t].name, tuple(graph.tensors[t].shape),
                                 np.dtype(graph.tensors[t].dtype)) for t in indices]
             for indices in (graph.inputs, graph.outputs)]
    model = harness.ModelUnderTest(name=case.replay_id, kind="fuzz", model_bytes=data, seed=case.seed & 0xFFFF,
                                   tolerance=0)
    rng = np.random.default_rng(case.seed)
    declared = _declared_ranges(case)
    samples = []
    for _ in range(2):
        sample = []
        for info in infos[0]:
            if info.dtype.kind == "f":
                sample.append(rng.uniform(-1, 1, info.shape).astype(info.dtype))
            elif info.dtype.kind == "b":  # numpy gives bool no integer limits
                sample.append(rng.integers(0, 1, info.shape, endpoint=True).astype(bool))
            else:
                limits = np.iinfo(info.dtype)
                low, high = declared.get(info.name, (limits.min, limits.max))
                low, high = max(int(low), int(limits.min)), min(int(high), int(limits.max))
                sample.append(rng.integers(low, max(low, high), info.shape, dtype=info.dtype, endpoint=True))
        samples.append(sample)
    model.__dict__.update(input_infos=infos[0], output_infos=infos[1], samples=samples)
    return model


def sanitizer_library(work: Path):
    """The portable kernels built once with ASan/UBSan, as the e2e harness builds them."""
    from tests.e2e import harness
    return harness.build_library("portable_host", harness.portable_sources(), harness.PORTABLE_DIR / "src",
                                 harness.PORTABLE_DIR / "include", work / "lib", cc=harness.HOST_CC,
                                 ar=harness.HOST_AR, cflags=harness.HOST_CFLAGS)


# --------------------------------------------------------------------------- the campaign

_RUNNER: Runner | None = None


def _init_worker(models, work, library, run_all=False) -> None:
    global _RUNNER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    worker_dir = Path(tempfile.mkdtemp(prefix=f"worker{os.getpid()}-", dir=work))
    _RUNNER = Runner(models, worker_dir, library, run_all)


def _run_in_worker(case: Case) -> Outcome:
    (_RUNNER.work / _CURRENT).write_text(case.replay_id)  # read by the parent if the worker gets stuck
    try:
        return _RUNNER.run(case)
    except Exception as exc:  # noqa: BLE001 - a campaign bug (not helia_aot's) is still reported
        return Outcome(case, "exception", "in the fuzz harness: " + _where(exc))


@dataclasses.dataclass
class Summary:
    outcomes: list[Outcome]
    seconds: float

    def counts(self) -> dict[str, collections.Counter]:
        table: dict[str, collections.Counter] = {}
        for o in self.outcomes:
            table.setdefault(o.case.mutation, collections.Counter())[o.result] += 1
        return table

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.failed]

    def table(self) -> str:
        counts = self.counts()
        columns = sorted({r for c in counts.values() for r in c},
                         key=lambda r: (r in FAILURES, r not in (CONVERTED, RAN), r))
        rows = [["mutation", *columns, "total"]]
        for mutation in [m for m in mutations.CLASSES if m in counts]:
            c = counts[mutation]
            rows.append([mutation, *[str(c.get(col, 0)) for col in columns], str(sum(c.values()))])
        totals = collections.Counter(o.result for o in self.outcomes)
        rows.append(["total", *[str(totals.get(col, 0)) for col in columns], str(len(self.outcomes))])
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        return "\n".join("  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in
                                   enumerate(zip(r, widths))) for r in rows)

    def slowest(self) -> Outcome | None:
        return max(self.outcomes, key=lambda o: o.seconds, default=None)


def run_campaign(models: dict[str, bytes], cases: list[Case], jobs: int = 2, sanitize: bool = True,
                 progress=None, library=None, run_all: bool = False) -> Summary:
    """Runs every case (in `jobs` worker processes) and gathers their outcomes. `library` is a
    sanitizer build of the kernels (sanitizer_library()); made here when None and `sanitize`.
    `run_all` runs every successful conversion under the sanitizers, not one in SAMPLE_ONE_IN."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="helia-fuzz-") as tmp:
        work = Path(tmp)
        if library is None and sanitize:
            library = sanitizer_library(work)
        outcomes: list[Outcome] = []
        if jobs <= 1:
            _init_worker(models, work, library, run_all)
            for case in cases:
                outcomes.append(_run_in_worker(case))
                if progress:
                    progress(outcomes)
        else:
            context = multiprocessing.get_context("fork")
            with context.Pool(jobs, initializer=_init_worker, initargs=(models, work, library, run_all)) as pool:
                results = pool.imap_unordered(_run_in_worker, cases)  # chunksize 1: next(timeout) exists
                for _ in cases:
                    try:
                        outcomes.append(results.next(timeout=STUCK_SECONDS))
                    except multiprocessing.TimeoutError:
                        # The cases the workers were running when the campaign stopped waiting.
                        running = [Case.parse(p.read_text()) for p in sorted(work.glob(f"worker*/{_CURRENT}"))]
                        done = {o.case.replay_id for o in outcomes}
                        outcomes += [Outcome(c, "hang", f"a worker reported nothing for {STUCK_SECONDS} s while this "
                                                        "case (or one it moved to) ran") for c in running
                                     if c.replay_id not in done][:jobs]
                        pool.terminate()
                        break
                    if progress:
                        progress(outcomes)
    return Summary(outcomes, time.monotonic() - start)
