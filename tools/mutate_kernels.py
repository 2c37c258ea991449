#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Mutation testing of the portable C kernels: how many small, plausible bugs the kernel tests catch.

Each mutant is one classic change to one line of kernels/portable/src: an arithmetic or shift operator
swapped (+ -, * /, << >>), a comparison moved by one (< <=, > >=, == !=), a loop bound off by one, the
two arguments of a call swapped, or a saturation dropped (helia_clamp(x, lo, hi) -> x). Mutants are
applied one at a time to a copy of the repository, and the kernel tests that name a function of the
mutated file run against it (the whole kernel suite when none does). A mutant is killed when they fail
(a crash, a sanitizer report or a timeout counts), survives when they pass, and is stillborn (left out
of the score) when the mutated file does not compile.

  tools/mutate_kernels.py [--sample N] [--seed S] [--file GLOB] [--list] [--jobs J]

--sample draws N mutants (seeded) from all of them; --list prints the mutants without running them.
Prints one line per mutant, then the score and every survivor.
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SRC = Path("kernels/portable/src")
TESTS = Path("tests/kernels")
TIMEOUT_S = 900


@dataclasses.dataclass(frozen=True)
class Mutant:
    path: Path          # relative to the repository
    line: int           # 1-based
    kind: str
    before: str
    after: str

    def describe(self) -> str:
        return f"{self.path}:{self.line} [{self.kind}] {self.before.strip()}  ->  {self.after.strip()}"


# (kind, pattern, replacement): each match of the pattern on a code line is one mutant.
_SWAPS = [
    ("arithmetic", r"(?<=\w|\)|\]) \+ (?=[\w(])", " - "),
    ("arithmetic", r"(?<=\w|\)|\]) - (?=[\w(])", " + "),
    ("arithmetic", r"(?<=\w|\)|\]) \* (?=[\w(])", " / "),
    ("arithmetic", r"(?<=\w|\)|\]) / (?=[\w(])", " * "),
    ("shift", r" << ", " >> "),
    ("shift", r" >> ", " << "),
    ("comparison", r" < (?!=)", " <= "),
    ("comparison", r" <= ", " < "),
    ("comparison", r" > (?!=)", " >= "),
    ("comparison", r" >= ", " > "),
    ("comparison", r" == ", " != "),
    ("comparison", r" != ", " == "),
]
_LOOP_BOUND = re.compile(r"(for \([^;]*;\s*\w+ )(<|<=)( [^;]+)(;)")
_SATURATION = re.compile(r"\b(helia_clamp\w*|clamp)\(")
_CALL = re.compile(r"\b(\w+)\(")
_NOT_CALLS = {"if", "for", "while", "switch", "return", "sizeof"}
# Calls whose two arguments commute: swapping them is an equivalent mutant, not a test gap.
_COMMUTATIVE = {"helia_sat_rounding_doubling_high_mul", "helia_sat_rounding_doubling_high_mul_s16",
                "helia_sat_truncating_doubling_high_mul_s16", "helia_rounding_doubling_high_mul",
                "helia_mul_wrapping", "helia_add_wrapping", "max_i32", "helia_max_f16", "helia_min_f16"}


def _code_part(line: str) -> str | None:
    """The line without a trailing // comment, or None for a line that is no code (comment, directive)."""
    stripped = line.strip()
    if not stripped or stripped.startswith(("#", "//", "/*", "*")):
        return None
    return line.split("//", 1)[0]


def _closing(text: str, open_index: int) -> int | None:
    """Index of the parenthesis closing the one at open_index, or None."""
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


def _split_args(inner: str) -> list[str]:
    args, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(inner[start:i])
            start = i + 1
    args.append(inner[start:])
    return args


def mutants_of_line(path: Path, number: int, line: str) -> list[Mutant]:
    code = _code_part(line)
    if code is None:
        return []
    tail = line[len(code):]
    found = []

    def add(kind: str, mutated_code: str) -> None:
        if mutated_code != code:
            found.append(Mutant(path, number, kind, line, mutated_code + tail))

    for kind, pattern, replacement in _SWAPS:
        for m in re.finditer(pattern, code):
            add(kind, code[:m.start()] + replacement + code[m.end():])
    for m in _LOOP_BOUND.finditer(code):
        add("loop-bound", code[:m.end(3)] + " - 1" + code[m.end(3):])  # one iteration short
    for m in _SATURATION.finditer(code):
        close = _closing(code, m.end() - 1)
        if close is not None:
            args = _split_args(code[m.end():close])
            if len(args) >= 2:
                add("saturation", code[:m.start()] + "(" + args[0].strip() + ")" + code[close + 1:])
    is_definition = not line[:1].isspace()  # functions are defined at column 0; their parameters are no call
    for m in _CALL.finditer(code):
        if is_definition or m.group(1) in _NOT_CALLS | _COMMUTATIVE or _SATURATION.match(code, m.start()):
            continue
        close = _closing(code, m.end() - 1)
        if close is None:
            continue
        args = _split_args(code[m.end():close])
        if len(args) == 2 and args[0].strip() != args[1].strip() and all(a.strip() for a in args):
            swapped = f"{args[1].strip()}, {args[0].strip()}"
            add("swapped-arguments", code[:m.end()] + swapped + code[close:])
    return found


def all_mutants(pattern: str) -> list[Mutant]:
    result = []
    for path in sorted((REPO / SRC).rglob("*.c")):
        rel = path.relative_to(REPO)
        if not fnmatch.fnmatch(str(rel), pattern):
            continue
        in_block_comment = False
        for number, line in enumerate(path.read_text().splitlines(keepends=True), start=1):
            stripped = line.strip()
            if in_block_comment:
                in_block_comment = "*/" not in stripped
                continue
            if stripped.startswith("/*") and "*/" not in stripped:
                in_block_comment = True
                continue
            result.extend(mutants_of_line(rel, number, line))
    unique = {(m.path, m.line, m.after): m for m in result}  # two rules can make the same line
    return list(unique.values())


def functions_defined(source: str) -> set[str]:
    return set(re.findall(r"^\w[\w\s\*]*?\b(\w+)\s*\([^;]*$", source, re.M)) - _NOT_CALLS


def tests_for(path: Path) -> list[str]:
    """Kernel test files (and their C drivers) that name a function the file defines."""
    names = functions_defined((REPO / path).read_text())
    chosen = []
    for test in sorted((REPO / TESTS).glob("test_*.py")):
        text = test.read_text()
        if any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
            chosen.append(str(test.relative_to(REPO)))
    return chosen or [str(TESTS)]


def copy_repository(into: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, capture_output=True,
                           text=True, check=True).stdout.split("\n")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():
            (into / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, into / rel)


def run_mutant(mutant: Mutant, work: Path) -> tuple[str, float]:
    """'killed' or 'survived' (and seconds) for one mutant applied to the copy in `work`."""
    target = work / mutant.path
    original = target.read_text()
    lines = original.splitlines(keepends=True)
    assert lines[mutant.line - 1] == mutant.before
    lines[mutant.line - 1] = mutant.after
    target.write_text("".join(lines))
    start = time.monotonic()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", HELIA_KERNEL_OBJECT_CACHE=str(work / ".object-cache"))
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                               *tests_for(mutant.path)], cwd=work, env=env, capture_output=True, timeout=TIMEOUT_S)
        output = proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")
        if proc.returncode == 0:
            verdict = "survived"
        elif re.search(rf"{re.escape(mutant.path.name)}:\d+:\d+: error:", output):
            verdict = "stillborn"  # the mutant does not compile: no test was needed to reject it
        else:
            verdict = "killed"
    except subprocess.TimeoutExpired:
        verdict = "killed"  # a mutant that hangs the kernel is caught by the test's timeout
    finally:
        target.write_text(original)
    return verdict, time.monotonic() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=0, help="draw this many mutants (0: all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draw")
    parser.add_argument("--file", default="*", help="only files matching this glob (e.g. '*softmax*')")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once, each in its own copy")
    parser.add_argument("--list", action="store_true", help="print the mutants and stop")
    args = parser.parse_args(argv)
    mutants = all_mutants(args.file if args.file.startswith("kernels/") else f"*{args.file.lstrip('*')}")
    total = len(mutants)
    if args.sample and args.sample < total:
        mutants = sorted(random.Random(args.seed).sample(mutants, args.sample),
                         key=lambda m: (str(m.path), m.line, m.kind, m.after))
    print(f"mutate_kernels: {len(mutants)} of {total} mutants (seed {args.seed})", flush=True)
    if args.list:
        for m in mutants:
            print(m.describe())
        return 0
    copies = [Path(tempfile.mkdtemp(prefix="helia-mutant-")) for _ in range(max(1, args.jobs))]
    for copy in copies:
        copy_repository(copy)
    results: list[tuple[Mutant, str]] = []
    try:
        def work(index_and_mutant):
            index, mutant = index_and_mutant
            verdict, seconds = run_mutant(mutant, copies[index % len(copies)])
            print(f"{verdict:8} {seconds:6.1f}s {mutant.describe()}", flush=True)
            return mutant, verdict
        if len(copies) == 1:
            results = [work((0, m)) for m in mutants]
        else:
            # Each worker owns one copy: mutant i runs in copy i % jobs, one at a time per copy.
            lanes = [[(j, m) for i, m in enumerate(mutants) if i % len(copies) == j] for j in range(len(copies))]
            with ThreadPoolExecutor(max_workers=len(copies)) as pool:
                for lane_results in pool.map(lambda lane: [work(x) for x in lane], lanes):
                    results.extend(lane_results)
    finally:
        for copy in copies:
            shutil.rmtree(copy, ignore_errors=True)
    killed = sum(1 for _, v in results if v == "killed")
    stillborn = sum(1 for _, v in results if v == "stillborn")
    survivors = [m for m, v in results if v == "survived"]
    counted = killed + len(survivors)
    score = 100.0 * killed / counted if counted else 0.0
    print(f"\nmutate_kernels: score {score:.1f}% ({killed} killed of {counted}; {len(survivors)} survived; "
          f"{stillborn} did not compile and are not counted)")
    for m in sorted(survivors, key=lambda m: (str(m.path), m.line)):
        print(f"survivor: {m.describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
