#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Per-module mutation sampling of the Python code: mutmut's mutants, each run against only the tests
that cover its module (tools/mutation_units.py), not the whole unit suite.

  tools/mutate_python.py [--unit GLOB ...] [--sample N] [--seed S] [--jobs J] [--results FILE]
                         [--mutant NAME ...] [--extra-tests PATH ...] [--list] [--show NAME]

mutmut 3.8.1 generates the mutants (its `mutate_file_contents`, the same names `mutmut show` uses); from
each unit's sorted names `random.Random(seed).sample` draws N. Each drawn mutant is written, alone, into a
scratch copy of the repository (made once per job in a temporary directory) and the unit's tests run
there with `pytest -x`: a failing test (any non-zero exit but 5, "no tests") kills it, a run past the
timeout (4x the clean run, at least 60 s) counts as killed by timeout. No `./mutants` tree, no trampolines,
no stats pass: the cost is one pytest start and the unit's tests up to the first failure.
Results are appended to a JSON-lines file (one object a mutant, with the tests it ran), a table per unit
and the survivors' diffs are printed, with the total wall and CPU time of the test runs.
--mutant re-runs named mutants (e.g. after a test was added); --extra-tests adds test files to every
selected unit's tests for that run. Not part of CI."""

from __future__ import annotations

import argparse
import concurrent.futures
import difflib
import fnmatch
import json
import os
import queue
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

from mutation_units import EQUIVALENT, UNITS, Unit  # noqa: E402

_IGNORE = shutil.ignore_patterns(".git", "mutants", "bazel-*", "__pycache__", "*.pyc", ".pytest_cache")


@dataclass(frozen=True)
class Mutant:
    name: str  # mutmut's name: dotted module + mangled function + __mutmut_N
    unit: str
    path: str  # repository-relative file
    source: str  # the whole file with this one mutation


def _module_name(path: str) -> str:
    return path[:-len(".py")].replace("/", ".")


@dataclass(frozen=True)
class _Generated:
    path: str
    code: str  # the file as it is
    mutated: str  # mutmut's file of every mutant with trampolines
    names: tuple[str, ...]


_GENERATED: dict[str, _Generated] = {}
_PARSED: dict = {}


def _generated(path: str) -> _Generated:
    if path not in _GENERATED:
        import hashlib
        code = (REPO / path).read_text()
        # Generating is slow (libcst): kept per file content, so a re-run of a few mutants is quick.
        cache = Path(tempfile.gettempdir()) / "helia-mutation-cache" / (
            hashlib.sha256(f"{path}\0{code}".encode()).hexdigest() + ".json")
        if cache.is_file():
            saved = json.loads(cache.read_text())
        else:
            from mutmut.mutation.file_mutation import mutate_file_contents
            mutated = mutate_file_contents(path, code)
            saved = {"mutated": mutated.code, "names": list(mutated.mutant_names)}
            cache.parent.mkdir(exist_ok=True)
            cache.write_text(json.dumps(saved))
        _GENERATED[path] = _Generated(path, code, saved["mutated"], tuple(saved["names"]))
    return _GENERATED[path]


def _names_of_file(path: str, functions: tuple[str, ...]) -> list[str]:
    from mutmut.utils.format_utils import parse_mutant_key
    names = []
    for name in _generated(path).names:
        func_name, _ = parse_mutant_key(name.rsplit("__mutmut_", 1)[0])
        if not functions or func_name in functions:
            names.append(f"{_module_name(path)}.{name}")
    return names


def _mutant(path: str, unit: str, full_name: str) -> Mutant:
    """The file with only this mutant's function swapped in (the others as they are)."""
    import libcst as cst
    from mutmut.mutation.diff_apply import read_mutant_function
    from mutmut.utils.format_utils import parse_mutant_key

    gen = _generated(path)
    name = full_name.rsplit(".", 1)[1]
    func_name, class_name = parse_mutant_key(name.rsplit("__mutmut_", 1)[0])
    if path not in _PARSED:
        _PARSED[path] = (cst.parse_module(gen.code), cst.parse_module(gen.mutated))
    original, mutated = _PARSED[path]
    replacement = read_mutant_function(mutated, name).with_changes(name=cst.Name(func_name))
    body = []
    for node in original.body:
        if class_name is None and isinstance(node, cst.FunctionDef) and node.name.value == func_name:
            node = replacement.with_changes(leading_lines=node.leading_lines, decorators=node.decorators)
        elif class_name and isinstance(node, cst.ClassDef) and node.name.value == class_name:
            methods = [replacement.with_changes(leading_lines=m.leading_lines, decorators=m.decorators)
                       if isinstance(m, cst.FunctionDef) and m.name.value == func_name else m for m in node.body.body]
            node = node.with_changes(body=node.body.with_changes(body=methods))
        body.append(node)
    return Mutant(full_name, unit, path, original.with_changes(body=body).code)


def names_of(unit: Unit) -> list[tuple[str, str]]:
    """(file, mutant name) of every mutant of the unit, sorted by name."""
    return sorted(((p, n) for p in unit.files for n in _names_of_file(p, unit.functions)), key=lambda x: x[1])


def draw(unit: Unit, n: int, seed: int, only: list[str] = ()) -> tuple[int, list[Mutant]]:
    every = names_of(unit)
    names = [name for _, name in every]
    if only:
        chosen = set(only)
    else:
        chosen = set(random.Random(seed).sample(names, min(n, len(names)))) if n else set(names)
    return len(every), [_mutant(p, unit.name, name) for p, name in every if name in chosen]


class Scratch:
    """A private copy of the repository where one mutant at a time is written and tested."""

    def __init__(self, root: Path):
        self.dir = root / "repo"
        shutil.copytree(REPO, self.dir, ignore=_IGNORE, symlinks=True)

    def run(self, tests: list[str], timeout: float, mutant: Mutant | None = None, timeout_kills: bool = False) -> dict:
        target = self.dir / mutant.path if mutant else None
        clean = target.read_text() if target else None
        if mutant:
            target.write_text(mutant.source)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *tests]
        start = time.monotonic()
        # Its own process group: a timeout ends the tests' own subprocesses too.
        proc = subprocess.Popen(cmd, cwd=self.dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            code = None
        finally:
            if mutant:
                target.write_text(clean)
        wall = time.monotonic() - start
        if code is None:
            # A timeout kills only when the clean run is known to be far quicker (4x); else undecided.
            verdict = "timeout" if timeout_kills else "undecided"
        elif code == 0:
            verdict = "survived"
        elif code == 5:
            verdict = "no tests"
        else:
            verdict = "killed"
        failed = [line.split(" ", 1)[1].split(" - ")[0] for line in out.splitlines() if line.startswith(("FAILED ", "ERROR "))]
        return {"verdict": verdict, "exit": code, "wall_s": round(wall, 2), "failed": failed[:1],
                "tail": "" if verdict in ("killed", "survived") else out[-1500:]}


def diff(mutant: Mutant) -> str:
    clean = (REPO / mutant.path).read_text().splitlines()
    return "\n".join(difflib.unified_diff(clean, mutant.source.splitlines(), mutant.path, mutant.path, n=1, lineterm=""))


def report(units: list[Unit], results: Path) -> int:
    runs: dict[str, list[dict]] = {}
    for r in map(json.loads, results.read_text().splitlines()):
        if r["verdict"] in ("killed", "survived", "timeout"):
            runs.setdefault(r["name"], []).append(r)
    print("| module | mutants | sampled | killed, suite | killed, new | equivalent | left | score |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    sums = [0] * 5
    for u in units:
        names = [n for n in runs if runs[n][0]["unit"] == u.name]
        if not names:
            continue
        # Killed by the suite: at once, or later by an older test outside the unit's selection; killed by a
        # new test: later, by a test_mutation_kills_* file.
        def later_killer(n: str) -> str:
            return next((r["failed"][0] if r["failed"] else "" for r in runs[n][1:] if r["verdict"] != "survived"), None)
        suite = [n for n in names if runs[n][0]["verdict"] != "survived"
                 or (later_killer(n) is not None and "test_mutation_kills_" not in later_killer(n))]
        new = [n for n in names if n not in suite and later_killer(n) is not None]
        equivalent = [n for n in names if n not in suite and n not in new and n in EQUIVALENT]
        left = [n for n in names if n not in suite + new + equivalent]
        judged = len(names) - len(equivalent)
        killed = len(suite) + len(new)
        print(f"| {u.name} | {len(names_of(u))} | {len(names)} | {len(suite)} | {len(new)} | {len(equivalent)} | "
              f"{len(left)} | {100.0 * killed / judged if judged else 100.0:.0f} % ({killed}/{judged}) |")
        for i, v in enumerate((len(names), len(suite), len(new), len(equivalent), len(left))):
            sums[i] += v
        for n in left:
            print(f"  left: {n}")
    judged = sums[0] - sums[3]
    print(f"| all | | {sums[0]} | {sums[1]} | {sums[2]} | {sums[3]} | {sums[4]} | "
          f"{100.0 * (sums[1] + sums[2]) / judged if judged else 100.0:.1f} % |")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--unit", nargs="*", default=["*"], help="unit name globs (tools/mutation_units.py)")
    parser.add_argument("--sample", type=int, default=10, help="mutants drawn per unit (0: all)")
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once (at most 2 here)")
    parser.add_argument("--results", default=str(Path(tempfile.gettempdir()) / "helia-mutation-results.jsonl"))
    parser.add_argument("--mutant", nargs="*", default=[], help="run these mutant names only (of the selected units)")
    parser.add_argument("--extra-tests", nargs="*", default=[], help="test paths added to each unit's selection")
    parser.add_argument("--no-clean-run", action="store_true",
                        help="skip each unit's clean run (timeout 600 s, then undecided); re-run the killing tests on the clean tree after")
    parser.add_argument("--only-extra-tests", action="store_true",
                        help="run --extra-tests instead of the units' tests (to check a new test kills --mutant)")
    parser.add_argument("--list", action="store_true", help="list the units, their mutant counts and tests")
    parser.add_argument("--show", help="print one mutant's diff")
    parser.add_argument("--report", action="store_true",
                        help="print the per-unit table of the results file (first verdict = the suite's, a later "
                             "kill = a new test's, tools/mutation_units.py EQUIVALENT) and run nothing")
    args = parser.parse_args(argv)

    units = []  # in the order of --unit
    for g in args.unit:
        units += [u for u in UNITS if fnmatch.fnmatch(u.name, g) and u not in units]
    done = set()
    if Path(args.results).is_file() and not args.mutant:
        # Mutants already decided in the results file are not run again (a stopped run resumes).
        done = {r["name"] for r in map(json.loads, Path(args.results).read_text().splitlines())
                if r["verdict"] in ("killed", "survived")}
    if args.show:
        from mutmut.utils.format_utils import get_module_from_key
        path = get_module_from_key(args.show).replace(".", "/") + ".py"
        print(diff(_mutant(path, "", args.show)))
        return 0
    if args.report:
        return report(units, Path(args.results))
    if args.list:
        for u in units:
            print(f"{u.name}: {len(names_of(u))} mutants; tests: {' '.join(u.tests)}")
        return 0

    workdir = Path(tempfile.mkdtemp(prefix="helia-mutation-"))
    scratches = [Scratch(workdir / str(i)) for i in range(max(1, args.jobs))]
    free: queue.Queue[Scratch] = queue.Queue()
    for scratch in scratches:
        free.put(scratch)
    lock = threading.Lock()
    baseline: dict[str, float] = {}
    plan: list[tuple[Unit, Mutant]] = []
    totals = {}
    wall_start = time.monotonic()
    cpu_start = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"mutate_python: {len(units)} units (seed {args.seed}, sample {args.sample})", flush=True)

    def tests_of(u: Unit) -> list[str]:
        return list(args.extra_tests) if args.only_extra_tests else [*u.tests, *args.extra_tests]

    def clean_run(u: Unit) -> None:
        scratch = free.get()
        try:
            r = scratch.run(tests_of(u), timeout=1800)
        finally:
            free.put(scratch)
        if r["verdict"] != "survived":
            raise SystemExit(f"mutate_python: {u.name}: the clean tests fail ({r['exit']}):\n{r['tail']}")
        baseline[u.name] = r["wall_s"]
        print(f"clean {u.name}: {r['wall_s']:.1f} s", flush=True)

    def one(item: tuple[Unit, Mutant]) -> dict:
        u, m = item
        scratch = free.get()
        try:
            r = scratch.run(tests_of(u), max(60.0, 4 * baseline.get(u.name, 150.0)), m, u.name in baseline)
        finally:
            free.put(scratch)
        r.update(name=m.name, unit=u.name, tests=tests_of(u), seed=args.seed, sample=args.sample)
        with lock:
            with open(args.results, "a") as f:
                f.write(json.dumps(r) + "\n")
            print(f"{r['verdict']:8} {r['wall_s']:6.1f} s  {m.name}  {' '.join(r['failed'])}", flush=True)
        return r

    # Each unit's mutants are generated while the previous unit's run.
    futures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(scratches)) as pool:
        for u in units:
            total, chosen = draw(u, args.sample, args.seed, args.mutant)
            totals[u.name] = total
            chosen = [m for m in chosen if m.name not in done]
            if not chosen:
                continue
            print(f"unit {u.name}: {len(chosen)} of {total} mutants", flush=True)
            if not args.no_clean_run:
                clean_run(u)
            plan += [(u, m) for m in chosen]
            futures += [pool.submit(one, (u, m)) for m in chosen]
        results = [f.result() for f in futures]
        killers = sorted({t for r in results for t in r["failed"]})
        if args.no_clean_run and killers:
            # Every kill must come from a test that passes without the mutant.
            check = scratches[0].run(killers, timeout=1800)
            print(f"killing tests on the clean tree: {check['verdict']} ({len(killers)} tests)\n{check['tail']}", flush=True)
    shutil.rmtree(workdir, ignore_errors=True)

    wall = time.monotonic() - wall_start
    cpu_end = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_end.ru_utime - cpu_start.ru_utime) + (cpu_end.ru_stime - cpu_start.ru_stime)
    print("\n| unit | mutants | sampled | killed | survived | other | score |\n|---|---:|---:|---:|---:|---:|---:|")
    for u in units:
        mine = [r for r in results if r["unit"] == u.name]
        if not mine:
            continue
        killed = sum(r["verdict"] in ("killed", "timeout") for r in mine)
        survived = sum(r["verdict"] == "survived" for r in mine)
        print(f"| {u.name} | {totals[u.name]} | {len(mine)} | {killed} | {survived} | {len(mine) - killed - survived} "
              f"| {100.0 * killed / len(mine):.1f} % |")
    print(f"\nmutate_python: {len(results)} mutants, wall {wall / 60:.1f} min, test CPU {cpu / 60:.1f} min; "
          f"results appended to {args.results}")
    by_name = {m.name: m for _, m in plan}
    for r in results:
        if r["verdict"] != "killed" and r["verdict"] != "timeout":
            print(f"\n{r['verdict']}: {r['name']}\n{diff(by_name[r['name']])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
