#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The fuzz campaign at any size: damaged models through helia_aot.convert, in process.
"""Usage: tools/fuzz [--n N] [--seed S] [--jobs J] [--models DIR] [--corpus all|shared|builder]
                  [--no-sanitize] [--sample-one-in K] [--mutation CLASS]... [--keep DIR]
                  [--replay 'MODEL|CLASS|SEED']...

Damages models (every .tflite under DIR, default <repo>/../shared/models or $HELIA_FUZZ_MODELS_DIR,
and the test builder's models) with N seeded mutations, the classes in turn, and converts each with
helia_aot.convert in process. Every outcome must be a typed refusal (a HeliaError, no output
directory left) or a module whose C files compile with -Werror; one successful conversion in 50
(every one, for --replay) is also run on the host under ASan/UBSan; a conversion over 10 s of CPU
(or 60 s of wall time, blocked) is a hang, one whose address space grows by more than 1.5 GiB is
over_budget (RLIMIT_AS). The hostile classes (shared_tables, deep_custom_options, many_call_once, huge_pooling_window, hostile_yaml,
hostile_plan) craft inputs that test those bounds. Prints the count of each outcome per mutation
class, then every failure with the line that replays it; exits 1 if there was any."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # helia_aot and tests from this clone

from tests.fuzz import campaign, mutations  # noqa: E402


def _parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tools/fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000, help="number of mutations (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--models", type=Path, help="folder of shared .tflite models (searched recursively)")
    parser.add_argument("--corpus", choices=("all", "shared", "builder"), default="all",
                        help="damage the shared models, the test builder's, or both (default: all, half each)")
    parser.add_argument("--mutation", action="append", choices=mutations.CLASSES,
                        help="only these mutation classes (default: all, in turn)")
    parser.add_argument("--no-sanitize", action="store_true", help="skip the ASan/UBSan runs")
    parser.add_argument("--sample-one-in", type=int, default=campaign.SAMPLE_ONE_IN, metavar="K",
                        help=f"run one successful conversion in K under ASan/UBSan (default {campaign.SAMPLE_ONE_IN})")
    parser.add_argument("--replay", action="append", default=[], metavar="MODEL|CLASS|SEED",
                        help="run these cases (as printed for a failure) instead of a campaign")
    parser.add_argument("--keep", type=Path, help="write each failing damaged model into this folder")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = _parse_args(argv)
    campaign.SAMPLE_ONE_IN = args.sample_one_in  # read by the workers, which fork after this
    models = campaign.corpus(args.models)
    if args.corpus != "all":
        models = {k: v for k, v in models.items() if k.startswith("shared/") == (args.corpus == "shared")}
    shared = sum(1 for m in models if m.startswith("shared/"))
    if args.replay:
        cases = [campaign.Case.parse(text) for text in args.replay]
    else:
        cases = campaign.plan_cases(models, args.n, args.seed, tuple(args.mutation or mutations.CLASSES))
    print(f"fuzz: {len(cases)} case(s) over {len(models)} models ({shared} shared, "
          f"{len(models) - shared} from the test builder), seed {args.seed}, {args.jobs} job(s)", flush=True)
    start = time.monotonic()

    def progress(outcomes):
        if len(outcomes) % 500 == 0:
            failed = sum(o.failed for o in outcomes)
            print(f"  {len(outcomes)}/{len(cases)} after {time.monotonic() - start:.0f} s, {failed} failure(s)",
                  file=sys.stderr, flush=True)

    summary = campaign.run_campaign(models, cases, jobs=args.jobs, sanitize=not args.no_sanitize,
                                    progress=progress, run_all=bool(args.replay))
    print(summary.table())
    slowest = summary.slowest()
    per_1000 = summary.seconds / max(len(summary.outcomes), 1) * 1000
    print(f"{len(summary.outcomes)} case(s) in {summary.seconds:.1f} s ({per_1000:.1f} s per 1000); "
          f"slowest conversion {slowest.seconds:.2f} s ({slowest.case.replay_id})" if slowest else "no cases")
    for o in summary.failures:
        print(f"FAIL {o.result}: {o.detail}\n  replay: tools/fuzz --replay '{o.case.replay_id}'")
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            _, data = campaign.damaged(models, o.case)
            name = o.case.replay_id.replace("/", "_").replace("|", "__") + ".tflite"
            (args.keep / name).write_bytes(data)
    missing = sorted({name for o in summary.outcomes if o.result == campaign.KERNEL_MISSING
                      for name in o.detail.split(" (")[0].split(", ")})
    if missing:
        checked = "compiled with ns-cmsis-nn's headers instead" if os.environ.get(campaign.NS_CMSIS_NN_ENV) else \
            f"not compiled further: set {campaign.NS_CMSIS_NN_ENV} to compile them with ns-cmsis-nn's headers"
        print(f"not counted as failures: {campaign.KERNEL_MISSING}, modules using what the portable kernels' headers "
              f"do not declare yet ({', '.join(missing)}); {checked}")
    print(f"{len(summary.failures)} failure(s)")
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
