#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Usage: tools/helium_bench.py [--family helium|dsp] [--backend portable|ns-cmsis-nn]... [--kernel K]... [--json FILE]
                              [--work-dir DIR]

Instructions per warm call (QEMU mps3-an547, -icount shift=0, -O2, Cortex-M55 with MVE) of our Helium
kernels and of the kernel library's entries they compete with, on the layer shapes of kws_ref_model
and vww_96_int8: helia_mve_depthwise_conv_3x3_s8 against arm_depthwise_conv_3x3_s8,
arm_depthwise_conv_s8_opt (with its scratch) and arm_depthwise_conv_s8 (kernel depthwise), and
helia_mve_convolve_1x1_s8 against arm_convolve_1x1_s8_fast and arm_convolve_1x1_s8 (kernel
conv_1x1), and so on: one kernel per kernels/helium/test/<kernel>_bench.c. Backends: portable, plus
ns-cmsis-nn when HELIA_NS_CMSIS_NN_DIR is set. Prints a Markdown table; every library output must equal
ours. --family dsp measures our DSP-extension kernels (kernels/dsp) the same way on the Cortex-M4 (QEMU
mps2-an386), against ns-cmsis-nn's DSP build: helia_dsp_depthwise_conv_3x3_s8 (kernel depthwise) and
helia_dsp_convolve_s8 (kernel conv)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

# bench_lib beside this file (explicitly: PYTHONSAFEPATH drops the script's folder).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lib import dsp, helium, kernels, toolchain  # noqa: E402

FAMILIES = {"helium": helium, "dsp": dsp}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tools/helium_bench.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", action="append", choices=[kernels.PORTABLE, kernels.NS_CMSIS_NN])
    parser.add_argument("--family", choices=sorted(FAMILIES), default="helium",
                        help="which of our kernel families to measure (default: helium)")
    parser.add_argument("--kernel", action="append", choices=sorted(set(helium.BENCH) | set(dsp.BENCH)),
                        help="which of the family's kernels to measure (default: all)")
    parser.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    parser.add_argument("--work-dir", type=Path, help="keep build artefacts here (default: a temporary directory)")
    args = parser.parse_args(argv)
    family = FAMILIES[args.family]
    unknown = sorted(set(args.kernel or ()) - set(family.BENCH))
    if unknown:
        parser.error(f"--family {args.family} has no bench for kernel(s) {', '.join(unknown)}")
    missing = toolchain.missing_tools()
    if missing:
        print(f"tools/helium_bench.py: needs {', '.join(missing)} (tools/bootstrap installs them in the rootfs)",
              file=sys.stderr)
        return 2
    backends = args.backend or ([kernels.PORTABLE] + ([kernels.NS_CMSIS_NN] if toolchain.ns_cmsis_nn_root() else []))
    with tempfile.TemporaryDirectory(prefix=f"{args.family}-bench-") as tmp:
        work = args.work_dir or Path(tmp)
        rows = [row for kernel in (args.kernel or sorted(family.BENCH)) for backend in backends
                for row in family.bench(work, backend, kernel)]
    print("| backend | layer | entry | instructions | scratch B | same output |")
    print("|---|---|---|---:|---:|---|")
    for row in rows:
        print(f"| {row['backend']} | {row['layer']} | {row['entry']} | {row['instructions']:,} | "
              f"{row['scratch_bytes']} | {'yes' if row['same_output'] else 'NO'} |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0 if all(row["same_output"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
