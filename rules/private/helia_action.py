# SPDX-License-Identifier: Apache-2.0
"""The actions behind the helia-aot rules, laying the compiler's output out as Bazel declared it.

  helia_action.py module --model M --prefix P --target T --kernel-library L [--config C] [--input-plan F]
      --include-dir D --src-dir D --plan F --report F [--report-html F]
  helia_action.py golden --model M --prefix P --target T --kernel-library L [--config C] [--input-plan F]
      --num-samples N --seed S --tolerance T [--iterations I] [--reference litert|tflm]
      --test-data F --test-main F

The compiler writes OUTDIR/{include,src,test}, <prefix>_plan.json, _report.json and _report.html; Bazel
wants folders as tree artifacts and every other output as a file of its own. A compiler error is
printed as its one line, `error: <ErrorClass>: ...`, and the action fails.
"""

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import helia_aot


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    kinds = parser.add_subparsers(dest="kind", required=True)
    module = kinds.add_parser("module", help="the module's sources, headers, plan and report")
    golden = kinds.add_parser("golden", help="golden data (LiteRT or TFLM) and the C test harness")
    for sub in (module, golden):
        for flag in ("--model", "--prefix", "--target", "--kernel-library"):
            sub.add_argument(flag, required=True)
        sub.add_argument("--config")
        sub.add_argument("--input-plan")  # a plan to convert by (optimization.plan); --plan is the one written
    for flag in ("--include-dir", "--src-dir", "--plan", "--report"):
        module.add_argument(flag, required=True)
    module.add_argument("--report-html")
    for flag in ("--num-samples", "--seed", "--tolerance"):
        golden.add_argument(flag, required=True, type=int)  # ranges: helia_aot's test.* checks
    golden.add_argument("--iterations", type=int)  # absent: the configuration's test.iterations
    for flag in ("--test-data", "--test-main"):
        golden.add_argument(flag, required=True)
    golden.add_argument("--reference", choices=("litert", "tflm"))  # unset: the config's test.reference
    return parser


def _lay_out(args, out: Path) -> None:
    if args.kind == "module":
        for source, destination in ((out / "include", args.include_dir), (out / "src", args.src_dir)):
            shutil.rmtree(destination, ignore_errors=True)
            shutil.copytree(source, destination)
        shutil.copyfile(out / f"{args.prefix}_plan.json", args.plan)
        shutil.copyfile(out / f"{args.prefix}_report.json", args.report)
        if args.report_html:
            shutil.copyfile(out / f"{args.prefix}_report.html", args.report_html)
    else:
        shutil.copyfile(out / "test" / f"{args.prefix}_test_data.c", args.test_data)
        shutil.copyfile(out / "test" / f"{args.prefix}_test_main.c", args.test_main)


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    golden = args.kind == "golden"
    with tempfile.TemporaryDirectory(prefix="helia-aot-") as scratch:
        out = Path(scratch) / "module"
        try:
            # The rule's attributes win over the configuration file (the golden test's tolerance too).
            helia_aot.convert(
                args.model, out, prefix=args.prefix, target=args.target, kernel_library=args.kernel_library,
                config=args.config, with_test_data=golden,
                num_test_samples=args.num_samples if golden else None,
                seed=args.seed if golden else None,
                tolerance=args.tolerance if golden else None,
                iterations=args.iterations if golden else None,
                reference=args.reference if golden else None,
                plan=args.input_plan,
            )
        except helia_aot.HeliaError as error:
            print(f"error: {type(error).__name__}: {error}", file=sys.stderr)
            return 2
        _lay_out(args, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
