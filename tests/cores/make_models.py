# SPDX-License-Identifier: Apache-2.0
"""Writes the int16 (A16W8) and float32 models the per-core golden tests run besides KWS.

Both are tests/modelgen's `skip_tconv` network (convolutions, a transposed convolution and a skip
connection) from its fixed seed: the A16W8 model and its float32 twin (the same weights, dequantized).
Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from tests.modelgen import int16_models

NETWORK = "skip_tconv"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--int16", required=True, type=pathlib.Path, help="where to write the A16W8 model")
    parser.add_argument("--float32", required=True, type=pathlib.Path, help="where to write the float32 model")
    args = parser.parse_args(argv)
    args.int16.write_bytes(int16_models.build(NETWORK))
    args.float32.write_bytes(int16_models.build_float_twin(NETWORK))
    return 0


if __name__ == "__main__":
    sys.exit(main())
