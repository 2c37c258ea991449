# SPDX-License-Identifier: Apache-2.0
"""The golden-data action of helia_aot_golden_test: seeded inputs, LiteRT reference outputs, and the
C harness that checks a module against them (`<prefix>_test_data.c`, `<prefix>_test_main.c`).
"""

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import helia_aot


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    for flag in ("--model", "--prefix", "--target", "--num-samples", "--seed", "--test-data", "--test-main"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--config")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="helia-aot-golden-") as scratch:
        out = Path(scratch) / "module"
        try:
            helia_aot.convert(args.model, out, prefix=args.prefix, target=args.target, config=args.config,
                              with_test_data=True, num_test_samples=int(args.num_samples), seed=int(args.seed))
        except helia_aot.HeliaError as error:
            print(f"error: {type(error).__name__}: {error}", file=sys.stderr)
            return 2
        shutil.copyfile(out / "test" / f"{args.prefix}_test_data.c", args.test_data)
        shutil.copyfile(out / "test" / f"{args.prefix}_test_main.c", args.test_main)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
