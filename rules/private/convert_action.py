# SPDX-License-Identifier: Apache-2.0
"""The helia_aot_module action: runs the compiler and lays its output out as Bazel declared it.

The compiler writes OUTDIR/{include,src}, <prefix>_plan.json and <prefix>_report.json; Bazel wants
the two folders as tree artifacts and the JSON files as files of their own.
"""

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import helia_aot


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    for flag in ("--model", "--prefix", "--target", "--include-dir", "--src-dir", "--plan", "--report"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--config")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="helia-aot-") as scratch:
        out = Path(scratch) / "module"
        try:
            helia_aot.convert(args.model, out, prefix=args.prefix, target=args.target, config=args.config)
        except helia_aot.HeliaError as error:
            print(f"error: {type(error).__name__}: {error}", file=sys.stderr)
            return 2
        for source, destination in ((out / "include", args.include_dir), (out / "src", args.src_dir)):
            shutil.rmtree(destination, ignore_errors=True)
            shutil.copytree(source, destination)
        shutil.copyfile(out / f"{args.prefix}_plan.json", args.plan)
        shutil.copyfile(out / f"{args.prefix}_report.json", args.report)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
