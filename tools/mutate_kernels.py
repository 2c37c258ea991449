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

  tools/mutate_kernels.py [--suite portable|signal|helium] [--sample N | --per-file N] [--seed S]
                          [--file GLOB] [--only ID,...] [--list] [--jobs J]

Suites: `portable` (the default, above: kernels/portable/src/**.c); `signal` (TFLM's Signal kernels,
kernels/portable/src/signal, headers included, each mutant judged by tests/kernels/test_signal_a.py and
test_signal_b.py, whose references are held bit-exact to TFLM); `helium` (kernels/helium/src, headers
included, each mutant built for Cortex-M55 into the parity firmware of every kernel that compiles the
mutated line and run on QEMU mps3-an547 by tests/kernels/test_helium_parity.py against the portable
reference or the kernel's plain C twin; the host fallbacks under "#else ... no MVE" are left out, as no
Helium build compiles them).

--sample draws N mutants (seeded) from all of them, --per-file N draws N from each file (seeded by the
seed and the file's path, so one file's draw does not move when another file changes); --only runs the
mutants with these ids (printed beside each); --list prints the mutants without running them.
Prints one line per mutant, then the score, a per-file table and every survivor.
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import hashlib
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

    @property
    def ident(self) -> str:
        """Stable while the file's line stays the same: for --only."""
        return hashlib.sha256(f"{self.path}:{self.line}:{self.after}".encode()).hexdigest()[:8]

    def describe(self) -> str:
        return (f"{self.ident} {self.path}:{self.line} [{self.kind}] {self.before.strip()}  ->  "
                f"{self.after.strip()}")


@dataclasses.dataclass(frozen=True)
class Suite:
    roots: tuple[Path, ...]
    suffixes: tuple[str, ...]
    # Lines under an "#else" whose text holds one of these markers, up to its #endif, are not mutated.
    skip_else_markers: tuple[str, ...] = ()


SUITES = {
    "portable": Suite((SRC,), (".c",)),
    "signal": Suite((SRC / "signal",), (".c", ".h")),
    "helium": Suite((Path("kernels/helium/src"),), (".c", ".h"), ("no MVE",)),
}
SIGNAL_TESTS = [str(TESTS / "test_signal_a.py"), str(TESTS / "test_signal_b.py")]
# Each Signal kernel source -> the word its tests' names hold.
SIGNAL_TEST_WORDS = {
    "filter_bank_log_u32.c": "log", "filter_bank_spectral_subtraction_u32.c": "spectral_subtraction",
    "helia_signal_energy_s16_u32.c": "energy", "helia_signal_fft_auto_scale_s16.c": "fft_auto_scale",
    "helia_signal_filter_bank_square_root_u64_u32.c": "square_root",
    "helia_signal_filter_bank_u32_u64.c": "filter_bank_matches or filter_bank_refuses",
    "helia_signal_window_s16.c": "window", "pcan_u32.c": "pcan", "rfft_f32.c": "rfft", "rfft_s16.c": "rfft",
    "rfft_s32.c": "rfft",
}
HELIUM_TEST = str(TESTS / "test_helium_parity.py")
# Each Helium kernel source -> the test functions of HELIUM_TEST that run its parity firmware.
HELIUM_PARITY_TESTS = {
    "helia_mve_convolve_1x1_s8.c": "test_convolve_1x1_matches_portable_reference",
    "helia_mve_convolve_s8.c": "test_convolve_matches_portable_reference",
    "helia_mve_convolve_s8_s32.c": "test_convolve_s8_s32_matches_its_plain_c",
    "helia_mve_depthwise_conv_3x3_s8.c": "test_depthwise_3x3_matches_portable_reference",
    "helia_mve_quantize_symmetric_f32_s8.c": "test_quantize_symmetric_matches_its_plain_c",
}
# A hung firmware is a killed mutant; waiting QEMU's usual 300 s for it would waste the shared machine.
MUTANT_QEMU_TIMEOUT_S = 120


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


def suite_files(suite: Suite) -> list[Path]:
    return sorted(path for root in suite.roots for path in (REPO / root).rglob("*")
                  if path.suffix in suite.suffixes and path.is_file())


def all_mutants(pattern: str, suite: Suite = SUITES["portable"]) -> list[Mutant]:
    result = []
    for path in suite_files(suite):
        rel = path.relative_to(REPO)
        if not fnmatch.fnmatch(str(rel), pattern):
            continue
        in_block_comment = False
        depth, skip_until_depth = 0, None  # preprocessor nesting; the depth of a skipped #else branch
        for number, line in enumerate(path.read_text().splitlines(keepends=True), start=1):
            stripped = line.strip()
            directive = stripped[1:].lstrip() if stripped.startswith("#") else ""
            if directive.startswith("if"):
                depth += 1
            elif directive.startswith("endif"):
                if skip_until_depth == depth:
                    skip_until_depth = None
                depth -= 1
            elif directive.startswith("else") and any(m in stripped for m in suite.skip_else_markers):
                skip_until_depth = depth
            if skip_until_depth is not None:
                continue
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


def _includers(header: Path) -> list[Path]:
    """The .c files beside header that include it, directly or through other headers."""
    found, pending = set(), [header.name]
    while pending:
        name = pending.pop()
        for other in (REPO / header.parent).iterdir():
            if other.name not in found and re.search(rf'#\s*include\s+"{re.escape(name)}"', other.read_text()):
                found.add(other.name)
                pending.append(other.name)
    return sorted(header.parent / name for name in found if name.endswith(".c"))


def _driver_text(test: str) -> str:
    """The C driver a signal test file builds (c/signal_a_driver.c beside test_signal_a.py)."""
    driver = REPO / TESTS / "c" / (Path(test).stem.removeprefix("test_") + "_driver.c")
    return driver.read_text() if driver.is_file() else ""


def tests_for(path: Path, suite: str = "portable") -> list[str]:
    """pytest arguments judging a mutant of path: for the portable suite the kernel test files (and their
    C drivers) that name a function the file defines."""
    if suite == "signal":
        sources = [path] if path.suffix == ".c" else _includers(path)
        # The kernels' entries only: a static helper's name (bit_length) may be a Python word too.
        names = {n for source in sources for n in functions_defined((REPO / source).read_text())
                 if n.startswith("helia_signal_")}
        chosen = [test for test in SIGNAL_TESTS
                  if any(re.search(rf"\b{re.escape(n)}\b", (REPO / test).read_text() + _driver_text(test))
                         for n in names)]
        # Only the tests of the kernels that compile the line (each test calls one kernel, named in the
        # test's name; test_out_of_range_arguments covers every kernel of test_signal_b.py's refusals); the
        # tests holding the Python references to TFLM run no kernel and cannot kill a mutant.
        words = sorted({SIGNAL_TEST_WORDS[source.name] for source in sources})
        selection = f"({' or '.join(words)} or out_of_range_arguments) and not reference_matches_tflm"
        return (chosen or SIGNAL_TESTS) + ["-k", selection]
    if suite == "helium":
        sources = [path] if path.suffix == ".c" else _includers(path)
        names = sorted({HELIUM_PARITY_TESTS[source.name] for source in sources})
        return [HELIUM_TEST, "-k", " or ".join(names)]
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


def run_mutant(mutant: Mutant, work: Path, suite: str = "portable") -> tuple[str, float]:
    """'killed' or 'survived' (and seconds) for one mutant applied to the copy in `work`."""
    target = work / mutant.path
    original = target.read_text()
    lines = original.splitlines(keepends=True)
    assert lines[mutant.line - 1] == mutant.before
    lines[mutant.line - 1] = mutant.after
    target.write_text("".join(lines))
    start = time.monotonic()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", HELIA_KERNEL_OBJECT_CACHE=str(work / ".object-cache"))
    plugins = []
    if suite == "helium":
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(work / "tools"), env.get("PYTHONPATH")]))
        env["HELIA_MUTATION_QEMU_TIMEOUT_S"] = str(MUTANT_QEMU_TIMEOUT_S)
        plugins = ["-p", "mutation_helium_plugin"]
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *plugins,
                               *tests_for(mutant.path, suite)], cwd=work, env=env, capture_output=True,
                              timeout=TIMEOUT_S)
        output = proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")
        if proc.returncode == 0:
            verdict = "survived" if re.search(r"\d+ passed", output) else "no-test"  # all skipped: no verdict
        elif re.search(rf"{re.escape(mutant.path.name)}:\d+:\d+: error:", output):
            verdict = "stillborn"  # the mutant does not compile: no test was needed to reject it
        else:
            verdict = "killed"
    except subprocess.TimeoutExpired:
        verdict = "killed"  # a mutant that hangs the kernel is caught by the test's timeout
    finally:
        target.write_text(original)
    return verdict, time.monotonic() - start


def draw(mutants: list[Mutant], sample: int, per_file: int, seed: int) -> list[Mutant]:
    if per_file:
        chosen = []
        for path in sorted({m.path for m in mutants}):
            of_file = sorted((m for m in mutants if m.path == path), key=lambda m: (m.line, m.kind, m.after))
            rng = random.Random(f"{seed}:{path}")
            chosen.extend(of_file if len(of_file) <= per_file else rng.sample(of_file, per_file))
        mutants = chosen
    elif sample and sample < len(mutants):
        mutants = random.Random(seed).sample(mutants, sample)
    return sorted(mutants, key=lambda m: (str(m.path), m.line, m.kind, m.after))


def per_file_table(all_of_run: list[Mutant], results: list[tuple[Mutant, str]]) -> str:
    rows = ["| file | mutants | run | killed | survived | stillborn | score |", "|---|--:|--:|--:|--:|--:|--:|"]
    for path in sorted({m.path for m, _ in results}):
        verdicts = [v for m, v in results if m.path == path]
        killed, survived = verdicts.count("killed"), verdicts.count("survived")
        counted = killed + survived
        score = f"{100.0 * killed / counted:.1f} %" if counted else "-"
        rows.append(f"| `{path}` | {sum(1 for m in all_of_run if m.path == path)} | {len(verdicts)} | {killed} | "
                    f"{survived} | {verdicts.count('stillborn')} | {score} |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=sorted(SUITES), default="portable", help="which kernels to mutate")
    parser.add_argument("--sample", type=int, default=0, help="draw this many mutants (0: all)")
    parser.add_argument("--per-file", type=int, default=0, help="draw this many mutants of each file (0: all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draw")
    parser.add_argument("--file", default="*", help="only files matching this glob (e.g. '*softmax*')")
    parser.add_argument("--only", default="", help="comma-separated mutant ids: run just these")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once, each in its own copy")
    parser.add_argument("--list", action="store_true", help="print the mutants and stop")
    args = parser.parse_args(argv)
    pattern = args.file if args.file.startswith("kernels/") else f"*{args.file.lstrip('*')}"
    generated = all_mutants(pattern, SUITES[args.suite])
    total = len(generated)
    if args.only:
        wanted = set(args.only.split(","))
        mutants = [m for m in generated if m.ident in wanted]
    else:
        mutants = draw(generated, args.sample, args.per_file, args.seed)
    print(f"mutate_kernels: suite {args.suite}, {len(mutants)} of {total} mutants (seed {args.seed})", flush=True)
    if args.list:
        for m in mutants:
            print(m.describe())
        return 0
    started = time.monotonic()
    # One copy per lane at a fixed path, whose object cache outlives the run: the next run (e.g. the
    # survivors again) reuses the objects, which name the copy's include paths.
    copies = [Path(tempfile.gettempdir()) / f"helia-mutant-{args.suite}-{j}" for j in range(max(1, args.jobs))]
    for copy in copies:
        if copy.exists():
            for entry in copy.iterdir():
                if entry.name != ".object-cache":
                    shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        copy.mkdir(parents=True, exist_ok=True)
        copy_repository(copy)
    results: list[tuple[Mutant, str]] = []
    try:
        def work(index_and_mutant):
            index, mutant = index_and_mutant
            verdict, seconds = run_mutant(mutant, copies[index % len(copies)], args.suite)
            print(f"{verdict:9} {seconds:6.1f}s {mutant.describe()}", flush=True)
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
        for copy in copies:  # the repository copy goes, its object cache stays
            for entry in copy.iterdir():
                if entry.name != ".object-cache":
                    shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink()
    killed = sum(1 for _, v in results if v == "killed")
    stillborn = sum(1 for _, v in results if v == "stillborn")
    untested = sum(1 for _, v in results if v == "no-test")
    survivors = [m for m, v in results if v == "survived"]
    counted = killed + len(survivors)
    score = 100.0 * killed / counted if counted else 0.0
    print(f"\nmutate_kernels: score {score:.1f}% ({killed} killed of {counted}; {len(survivors)} survived; "
          f"{stillborn} did not compile and are not counted; {untested} ran no test (all skipped)) "
          f"in {time.monotonic() - started:.0f} s")
    print(per_file_table(generated, results))
    for m in sorted(survivors, key=lambda m: (str(m.path), m.line)):
        print(f"survivor: {m.describe()}")
    return 1 if untested else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
