#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""More differential cases than CI runs (tests/e2e/test_differential.py): for each operator, --cases
generated models walking its rules' boundaries, each run by LiteRT (TFLM where LiteRT refuses) and
converted, built and run by helia-aot on the host (portable kernels, ASan/UBSan). Prints the per-operator
counts and every case that breaks the contract; exit status 1 when any does.

    tools/differential [--cases N] [--seed S] [--keep DIR] [OPERATOR ...]"""

from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests.e2e import differential, harness  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("operators", nargs="*",
                        help=f"operators (default: all of {', '.join(differential.GENERATORS)})")
    parser.add_argument("--cases", type=int, default=40, help="cases per operator (default 40)")
    parser.add_argument("--seed", type=int, default=30, help="generator seed (default 30)")
    parser.add_argument("--library", choices=("portable", "ns-cmsis-nn"), default="portable",
                        help="kernel library the host builds link (ns-cmsis-nn: HELIA_NS_CMSIS_NN_DIR's tree)")
    parser.add_argument("--keep", type=pathlib.Path, help="keep the converted modules and builds in this folder")
    args = parser.parse_args(argv)
    unknown = [op for op in args.operators if op not in differential.GENERATORS]
    if unknown:
        parser.error(f"no generator for {unknown[0]} (have {', '.join(differential.GENERATORS)})")
    root = args.keep or pathlib.Path(tempfile.mkdtemp(prefix="helia-differential-"))
    root.mkdir(parents=True, exist_ok=True)
    session = harness.E2ESession(root)
    if args.library == "ns-cmsis-nn":
        ns_root = harness.ns_cmsis_nn_dir()
        if ns_root is None:
            parser.error("--library ns-cmsis-nn needs HELIA_NS_CMSIS_NN_DIR (an ns-cmsis-nn source tree)")
        library = session.ns_cmsis_nn_host_library(ns_root)
    else:
        library = session.portable_host_library()
    rows, broken = {}, []
    for op in args.operators or list(differential.GENERATORS):
        outcomes = differential.run_operator(op, args.cases, session, library, args.seed)
        rows[op] = differential.tally(outcomes)
        broken += [o for o in outcomes if o.problem]
        print("\n".join(differential.table({op: rows[op]})[1:]), flush=True)
    print()
    print("\n".join(differential.table(rows)))
    for op, counts in rows.items():
        for limit in sorted(counts.limits):
            print(f"{op}: refused as a documented limit: {limit}")
    for o in broken:
        print(f"BROKEN {o.case.name} ({o.case.boundary}): {o.problem}"
              + (f" [reference: {o.reference}; {o.reference_error}]" if o.reference_error else ""))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
