# SPDX-License-Identifier: Apache-2.0
"""`bazel run //:helia_aot -- convert MODEL -o OUTDIR ...`: the helia-aot command under Bazel."""

from helia_aot.cli import run

if __name__ == "__main__":
    run()
