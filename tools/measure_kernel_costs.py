#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Usage: tools/measure_kernel_costs [--flavour NAME]... [--work-dir DIR] [--out DIR]

Measures the instructions of each int8 convolution, depthwise and fully connected kernel entry the
compiler may choose between, on a set of layer shapes (the MLPerf Tiny models' and a few more), for
each kernel library flavour: ns-cmsis-nn's MVE build on a Cortex-M55 (QEMU mps3-an547), its DSP build
on a Cortex-M4 (QEMU mps2-an386), M7 (mps2-an500) and M33 (mps2-an505), its plain-C build on a
Cortex-M3 (mps2-an385), and the portable kernels on each. Every call runs once to warm up
and once timed (a warm call) with SysTick under -icount shift=0, by the counter the golden tests and
the benchmark use (toolchains/corstone300/instruction_counter.h), compiled with Bazel's opt flags
(-O2). Writes helia_aot/library/cost_tables/<flavour>.json: the measurements, a linear model per entry fitted to them (helia_aot.library.cost_model) and the command and
date that made the file. The firmware is built with tools/bench_lib (the flags in
toolchains/arm_gnu/cores.bzl)."""

from __future__ import annotations

import argparse
import datetime
import json
import math
import shlex
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lib import counter, kernels, toolchain  # noqa: E402
from helia_aot.library import ns_cmsis_nn_scratch as sizes  # noqa: E402
from helia_aot.library import cost_model, own_kernels  # noqa: E402

# flavour -> (bench backend, core, helia_aot library name, build)
FLAVOURS = {
    "ns_cmsis_nn-mve-cortex-m55": (kernels.NS_CMSIS_NN, "cortex_m55", "ns_cmsis_nn", "mve"),
    "ns_cmsis_nn-dsp-cortex-m4": (kernels.NS_CMSIS_NN, "cortex_m4", "ns_cmsis_nn", "dsp"),
    "portable-plain-cortex-m55": (kernels.PORTABLE, "cortex_m55", "portable", "plain"),
    "portable-plain-cortex-m4": (kernels.PORTABLE, "cortex_m4", "portable", "plain"),
}
# The other emulated cores (toolchains/arm_gnu/cores.bzl), each with ns-cmsis-nn's build for it and the
# portable kernels, on its board's QEMU machine. Not the Cortex-M0: the micro:bit's 16 KiB of RAM cannot
# hold the measured layers' buffers (150 KiB), so an M0 takes the M3's plain-C tables.
for _name in ("cortex_m3", "cortex_m7", "cortex_m33"):
    _core = toolchain.CORES[_name]
    FLAVOURS[f"ns_cmsis_nn-{_core.ns_cmsis_nn_build}-{_core.core}"] = (
        kernels.NS_CMSIS_NN, _name, "ns_cmsis_nn", _core.ns_cmsis_nn_build)
    FLAVOURS[f"portable-plain-{_core.core}"] = (kernels.PORTABLE, _name, "portable", "plain")
OPTIMIZATION = toolchain.SPEED_OPT


@dataclass(frozen=True)
class Case:
    entry: str
    input_dims: tuple[int, int, int, int]
    filter_dims: tuple[int, int, int, int]
    output_dims: tuple[int, int, int, int]
    stride: tuple[int, int] = (1, 1)  # w, h
    padding: tuple[int, int] = (0, 0)  # w, h


def _out(size: int, kernel: int, stride: int, pad: int) -> int:
    return (size + 2 * pad - kernel) // stride + 1


def _conv(entries, h, w, cin, cout, kh, kw, s, p) -> list[Case]:
    oh, ow = _out(h, kh, s, p[1]), _out(w, kw, s, p[0])
    return [Case(e, (1, h, w, cin), (cout, kh, kw, cin), (1, oh, ow, cout), (s, s), p) for e in entries]


def _conv_same(entries, h, w, cin, cout, kh, kw, s) -> list[Case]:
    """TFLite SAME padding: the output is ceil(input / stride), the leading padding half the total."""
    oh, ow = -(-h // s), -(-w // s)
    p = (max((ow - 1) * s + kw - w, 0) // 2, max((oh - 1) * s + kh - h, 0) // 2)
    return [Case(e, (1, h, w, cin), (cout, kh, kw, cin), (1, oh, ow, cout), (s, s), p) for e in entries]


def _dw(entries, h, w, c, k, s, p) -> list[Case]:
    oh, ow = _out(h, k, s, p), _out(w, k, s, p)
    return [Case(e, (1, h, w, c), (1, k, k, c), (1, oh, ow, c), (s, s), (p, p)) for e in entries]


DW_3X3 = ("arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt", "arm_depthwise_conv_s8",
          "arm_depthwise_conv_wrapper_s8")
DW_ANY = ("arm_depthwise_conv_s8_opt", "arm_depthwise_conv_s8", "arm_depthwise_conv_wrapper_s8")
CONV_1X1 = ("arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8", "arm_convolve_s8", "arm_convolve_wrapper_s8")
CONV_1X1_STRIDED = ("arm_convolve_1x1_s8", "arm_convolve_s8", "arm_convolve_wrapper_s8")
CONV_1XN = ("arm_convolve_1_x_n_s8", "arm_convolve_s8", "arm_convolve_wrapper_s8")
CONV = ("arm_convolve_s8", "arm_convolve_wrapper_s8")


def cases(families=()) -> list[Case]:
    """The measured calls; `families`: our kernel families linked on the core (own_kernels.families_for),
    whose entries compete with the library's."""
    helium, dsp = own_kernels.HELIUM in families, own_kernels.DSP in families
    dw3 = DW_3X3 + (("helia_mve_depthwise_conv_3x3_s8",) if helium else ()) + (
        ("helia_dsp_depthwise_conv_3x3_s8",) if dsp else ())
    own_conv = ("helia_mve_convolve_s8",) if helium else ()
    # Our general convolution of either family competes wherever arm_convolve_s8 does.
    own_conv += ("helia_dsp_convolve_s8",) if dsp else ()
    conv_1x1 = CONV_1X1 + (("helia_mve_convolve_1x1_s8",) if helium else ()) + own_conv + (
        ("helia_dsp_convolve_1x1_s8",) if dsp else ())
    found: list[Case] = []
    # kws's and every vww layer shape (so the models' estimates are measurements), and a few more.
    for h, w, c, s in ((25, 5, 64, 1), (48, 48, 8, 1), (48, 48, 16, 2), (24, 24, 32, 1), (24, 24, 32, 2),
                       (12, 12, 64, 1), (12, 12, 64, 2), (6, 6, 128, 1), (6, 6, 128, 2), (3, 3, 256, 1),
                       (10, 10, 20, 1), (7, 7, 3, 2), (8, 8, 132, 1),
                       # outputs of at most nine pixels (our kernel's pixel-major order) and channel
                       # counts that leave a short block of eight
                       (3, 3, 64, 1), (5, 5, 96, 2), (2, 2, 40, 1), (4, 4, 24, 2), (14, 14, 36, 1), (9, 9, 12, 2),
                       (20, 6, 100, 1)):
        found += _dw(dw3, h, w, c, 3, s, 1)
    found += _dw(DW_ANY, 12, 12, 32, 5, 1, 2) + _dw(DW_ANY, 9, 9, 24, 5, 2, 2)
    # kws's and every vww pointwise shape, and a few more (odd pixel and channel counts, short depths: the
    # Helium kernel's depth-8 loop of four pixels, two pixels per load at depth 5, one at 13, short groups).
    for h, w, cin, cout in ((25, 5, 64, 64), (48, 48, 8, 16), (24, 24, 16, 32), (24, 24, 32, 32),
                            (12, 12, 32, 64), (12, 12, 64, 64), (6, 6, 64, 128), (6, 6, 128, 128),
                            (3, 3, 128, 256), (12, 12, 64, 128), (3, 3, 256, 256), (10, 10, 12, 20), (8, 8, 30, 10),
                            (7, 7, 40, 25), (16, 16, 8, 12), (9, 9, 5, 7), (7, 7, 13, 10)):
        found += _conv(conv_1x1, h, w, cin, cout, 1, 1, 1, (0, 0))
    for h, w, cin, cout in ((32, 32, 16, 32), (16, 16, 32, 64), (9, 9, 8, 12)):
        found += _conv(CONV_1X1_STRIDED + own_conv, h, w, cin, cout, 1, 1, 2, (0, 0))
    for w, cin, cout, k in ((32, 16, 16, 3), (64, 8, 8, 5), (20, 32, 24, 3), (40, 16, 32, 3), (24, 4, 8, 5),
                            (50, 12, 12, 3), (16, 64, 16, 3)):
        found += _conv(CONV_1XN + own_conv, 1, w, cin, cout, 1, k, 1, ((k - 1) // 2, 0))
    for h, w, cin, cout, kh, kw, s, p in ((32, 32, 3, 16, 3, 3, 1, (1, 1)), (16, 16, 32, 32, 3, 3, 1, (1, 1)),
                                          (96, 96, 3, 8, 3, 3, 2, (0, 0)), (49, 10, 1, 64, 10, 4, 2, (1, 4)),
                                          (8, 8, 64, 64, 3, 3, 1, (1, 1)), (12, 12, 20, 28, 5, 5, 1, (2, 2))):
        found += _conv(CONV + own_conv, h, w, cin, cout, kh, kw, s, p)
    # The MLPerf models' general convolutions as they are (SAME): kws's first layer, vww's, resnet's.
    for h, w, cin, cout, kh, kw, s in ((49, 10, 1, 64, 10, 4, 2), (96, 96, 3, 8, 3, 3, 2), (32, 32, 16, 16, 3, 3, 1),
                                       (32, 32, 16, 32, 3, 3, 2), (16, 16, 32, 64, 3, 3, 2),
                                       (7, 7, 5, 9, 3, 3, 1)):
        found += _conv_same(CONV + own_conv, h, w, cin, cout, kh, kw, s)
    # Band calls of patch-based execution (helia_aot.memory.patches weighs a patching by what its band
    # calls cost: measured where all were): a few rows of the kws and vww chains' layers, inside the image and at its top edge, so
    # the fits see what a call of one to three rows costs (kws on a Cortex-M4 took a 21 % slower patching
    # that the models, fitted to whole layers only, put at 2 %). Not the wrappers: a chain calls the entry
    # chosen, and a wrapper's model (a dispatch between entries) fits small calls worst.
    band: list[Case] = []
    for rows in (1, 2, 3):
        for top in (0, 1):
            band += [Case(e, (1, rows + 2 - top, 5, 64), (1, 3, 3, 64), (1, rows, 5, 64), (1, 1), (1, top))
                      for e in dw3]
            band += [Case(e, (1, rows + 2 - top, 48, 8), (1, 3, 3, 8), (1, rows, 48, 8), (1, 1), (1, top))
                      for e in dw3]
            band += [Case(e, (1, 2 * rows + 1 - top, 48, 16), (1, 3, 3, 16), (1, rows, 24, 16), (2, 2), (0, top))
                      for e in dw3]
        band += _conv(conv_1x1, rows, 5, 64, 64, 1, 1, 1, (0, 0)) + _conv(conv_1x1, rows, 48, 8, 16, 1, 1, 1, (0, 0))
        band += [Case(e, (1, 2 * rows + 8, 10, 1), (64, 10, 4, 1), (1, rows, 5, 64), (2, 2), (1, 0))
                  for e in CONV + own_conv]
        band += [Case(e, (1, 2 * rows + 1, 96, 3), (8, 3, 3, 3), (1, rows, 48, 8), (2, 2), (0, 0))
                  for e in CONV + own_conv]
    found += [c for c in band if not c.entry.endswith("_wrapper_s8")]
    fc = ("arm_fully_connected_s8", "arm_fully_connected_per_channel_s8") + (
        ("helia_mve_fully_connected_s8",) if helium else ())
    # ad01's and kws's layers, and a few more
    for depth, outputs in ((640, 128), (128, 128), (128, 8), (64, 12), (256, 10), (400, 50), (8, 128), (128, 640)):
        found += [Case(e, (1, 1, 1, depth), (depth, 1, 1, outputs), (1, 1, 1, outputs)) for e in fc]
    # our kernel's three depth loops (multiples of 32, of 16, any depth) and short last row groups
    for depth, outputs in ((48, 20), (100, 30), (33, 7), (160, 64), (20, 9)):
        found += [Case(e, (1, 1, 1, depth), (depth, 1, 1, outputs), (1, 1, 1, outputs)) for e in fc[2:]]
    return found


def scratch_bytes(case: Case, build: str) -> int:
    """ctx->buf bytes the entry asks for on this build (the compiler's own sizers)."""
    g = sizes.ConvGeometry(case.stride[0], case.stride[1], case.padding[0], case.padding[1])
    if case.entry == "arm_convolve_s8":
        return sizes.convolve_s8(build, case.input_dims, case.filter_dims)
    if case.entry == "helia_mve_convolve_s8":
        return sizes.helium_convolve_s8(case.input_dims, case.filter_dims)
    if case.entry.startswith("arm_convolve"):
        return sizes.convolve_wrapper_s8(build, g, case.input_dims, case.filter_dims, case.output_dims)
    if case.entry == "arm_depthwise_conv_s8_opt":
        return sizes.depthwise_conv_s8_opt(build, case.input_dims, case.filter_dims)
    if case.entry == "arm_depthwise_conv_wrapper_s8":
        return max(sizes.depthwise_wrapper_s8(build, g, case.input_dims, case.filter_dims, case.output_dims, c)
                   for c in ("gcc", "armclang"))
    return 0


_HARNESS_HEAD = """/* SPDX-License-Identifier: Apache-2.0 */
/* Generated by tools/measure_kernel_costs: each kernel call once to warm up, once timed. */
#include <stdint.h>
#include <stdio.h>

#include "arm_nnfunctions.h"
#include "instruction_counter.h"
{extra_include}
static int8_t input[{input_bytes}] __attribute__((aligned(16)));
static int8_t filter[{filter_bytes}] __attribute__((aligned(16)));
static int8_t output[{output_bytes}] __attribute__((aligned(16)));
static int32_t bias[{channels}];
static int32_t multiplier[{channels}];
static int32_t shift[{channels}];
static int32_t weight_sum[{channels}]; /* values do not change the instruction count */
static int8_t scratch[{scratch_bytes}] __attribute__((aligned(16)));

static uint32_t lcg = 12345u;
static int8_t next_byte(void) {{
  lcg = lcg * 1103515245u + 12345u;
  return (int8_t)(lcg >> 24);
}}

static void fill(void) {{
  for (int32_t i = 0; i < (int32_t)sizeof(input); ++i) input[i] = next_byte();
  for (int32_t i = 0; i < (int32_t)sizeof(filter); ++i) filter[i] = next_byte();
  for (int32_t i = 0; i < {channels}; ++i) {{
    bias[i] = (int32_t)next_byte() * 64;
    multiplier[i] = 1518500250 + (int32_t)next_byte() * 1024;
    shift[i] = -7 - (i % 3);
    weight_sum[i] = bias[i];
  }}
}}

/* The status, then the count as every harness reports one (helia_counter_report: a warm call). */
static void report(int32_t index, const char *entry, arm_cmsis_nn_status status, uint64_t ticks) {{
  char what[96];
  printf("cost: case %ld status %ld\\n", (long)index, (long)status);
  snprintf(what, sizeof(what), "case %ld %s", (long)index, entry);
  helia_counter_report(what, "warm", ticks);
}}

"""


def _call(case: Case, index: int, build: str) -> str:
    n, h, w, c = case.input_dims
    fn, fh, fw, fc = case.filter_dims
    on, oh, ow, oc = case.output_dims
    kind = cost_model.kind_of(case.entry).name
    lines = [f"static void case_{index}(void) {{",
             f"  const cmsis_nn_dims input_dims = {{ {n}, {h}, {w}, {c} }};",
             f"  const cmsis_nn_dims filter_dims = {{ {fn}, {fh}, {fw}, {fc} }};",
             f"  const cmsis_nn_dims bias_dims = {{ 1, 1, 1, {oc} }};",
             f"  const cmsis_nn_dims output_dims = {{ {on}, {oh}, {ow}, {oc} }};",
             "  const cmsis_nn_context weight_sum_ctx = { weight_sum, (int32_t)sizeof(weight_sum) };",
             "  const cmsis_nn_per_channel_quant_params quant = { multiplier, shift };"]
    sw, sh = case.stride
    pw, ph = case.padding
    if kind in ("fc", "mve_fc"):
        # The kernel sums a module passes: on ns-cmsis-nn's MVE build (which needs them); beside the
        # other libraries none (our Helium kernel then sums the rows itself; theirs ignore them).
        sums = "weight_sum, (int32_t)sizeof(weight_sum)" if build == "mve" or kind == "fc" else "NULL, 0"
        lines += [f"  const cmsis_nn_context ctx = {{ {sums} }};",
                  "  const cmsis_nn_fc_params params = { 3, 0, -5, { -128, 127 } };"]
        if case.entry in ("arm_fully_connected_s8", "helia_mve_fully_connected_s8"):
            lines += ["  const cmsis_nn_per_tensor_quant_params tensor_quant = { 1518500250, -7 };"]
            q = "&tensor_quant"
        else:
            q = "&quant"
        args = (f"&ctx, &params, {q}, &input_dims, input, &filter_dims, filter, &bias_dims, bias, "
                "&output_dims, output")
    else:
        # The context carries the scratch size this build asks for (what the module passes).
        lines.append(f"  const cmsis_nn_context ctx = {{ scratch, {scratch_bytes(case, build)} }};")
        if kind in ("conv", "mve_pointwise", "mve_conv", "dsp_pointwise"):
            lines += [f"  const cmsis_nn_conv_params params = {{ 3, -5, {{ {sw}, {sh} }}, {{ {pw}, {ph} }}, "
                      "{ 1, 1 }, { -128, 127 } };"]
            upscale = "NULL, " if case.entry == "arm_convolve_s8" else ""
            args = (f"&ctx, &weight_sum_ctx, &params, &quant, &input_dims, input, &filter_dims, filter, "
                    f"&bias_dims, bias, {upscale}&output_dims, output")
        else:
            lines += [f"  const cmsis_nn_dw_conv_params params = {{ 3, -5, {oc // c}, {{ {sw}, {sh} }}, "
                      f"{{ {pw}, {ph} }}, {{ 1, 1 }}, {{ -128, 127 }} }};"]
            takes_sum = case.entry in ("arm_depthwise_conv_s8_opt", "arm_depthwise_conv_wrapper_s8")
            args = (f"&ctx, {'&weight_sum_ctx, ' if takes_sum else ''}&params, &quant, &input_dims, input, "
                    "&filter_dims, filter, &bias_dims, bias, &output_dims, output")
    lines += [f"  (void){case.entry}({args});",
              "  helia_counter_start();",
              f"  arm_cmsis_nn_status status = {case.entry}({args});",
              "  uint64_t ticks = helia_counter_ticks();",
              f'  report({index}, "{case.entry}", status, ticks);', "}", ""]
    return "\n".join(lines)


def write_harness(all_cases: list[Case], build: str, out: Path, own_headers: list[str]) -> Path:
    def biggest(attr):
        return max(math.prod(getattr(c, attr)) for c in all_cases)
    channels = max(max(c.output_dims[3], c.filter_dims[0]) for c in all_cases)
    scratch = max([scratch_bytes(c, build) for c in all_cases] + [16])
    text = _HARNESS_HEAD.format(extra_include="".join(f'#include "{h}"\n' for h in own_headers),
                                input_bytes=biggest("input_dims"), filter_bytes=biggest("filter_dims"),
                                output_bytes=biggest("output_dims"), channels=channels, scratch_bytes=scratch)
    body = [_call(case, i, build) for i, case in enumerate(all_cases)]
    main = ["int main(void) {", "  fill();"] + [f"  case_{i}();" for i in range(len(all_cases))]
    main += ["  return 0;", "}", ""]
    out.write_text(text + "\n".join(body) + "\n".join(main), encoding="utf-8")
    return out


def measure(flavour: str, work: Path) -> dict:
    backend, core_name, library, build = FLAVOURS[flavour]
    core = toolchain.CORES[core_name]
    lib = kernels.build(backend, OPTIMIZATION, work, core)
    # Our kernel families link beside either library on the cores they serve (helia_aot.library.kernel_library).
    families = own_kernels.families_for(core.capabilities)
    all_cases = cases(families)
    out = work / flavour
    out.mkdir(parents=True, exist_ok=True)
    harness = write_harness(all_cases, build, out / "cost_cases.c", [f.header for f in families])
    flags = core.common_cflags + [*toolchain.optimization_flags(OPTIMIZATION),
                                  *(f for d in lib.include_dirs for f in ("-I", str(d))), *core.runtime_flags()]
    sources = [harness, *core.runtime_sources()]
    objects = toolchain.parallel_map(
        lambda src: toolchain.compile_c(src, out / "obj" / (src.stem + ".o"), flags, f"compile {src.name}"), sources)
    elf = out / "cost.elf"
    toolchain.run([toolchain.ARM_CC, *core.ldflags, "-o", elf, *objects, *lib.archives, "-lm"],
                  f"link {flavour}")
    stdout = toolchain.run(core.qemu_command(elf), f"QEMU {flavour}", timeout=toolchain.QEMU_TIMEOUT_S,
                           merge_stderr=True)
    statuses = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 5 and parts[:2] == ["cost:", "case"]:
            statuses[int(parts[2])] = int(parts[4])
    calls = {count.what: count for count in counter.counts(stdout)}
    measurements = []
    for i, case in enumerate(all_cases):
        count = calls.get(f"case {i} {case.entry}")
        if i not in statuses or count is None:
            raise toolchain.BenchError(f"{flavour}: case {i} ({case.entry}) printed nothing:\n{stdout[-2000:]}")
        if statuses[i] != 0:
            continue  # the entry refuses this shape on this build: not a candidate there
        measurements.append({"entry": case.entry, "input_dims": list(case.input_dims),
                             "filter_dims": list(case.filter_dims), "output_dims": list(case.output_dims),
                             "stride": list(case.stride), "padding": list(case.padding),
                             "scratch_bytes": scratch_bytes(case, build),
                             "instructions": count.instructions})
    return {"library": library, "build": build, "core": core.core, "qemu_machine": core.qemu_machine,
            "optimization": OPTIMIZATION, "entries": fit_entries(measurements), "measurements": measurements}


def fit_entries(measurements: list[dict]) -> dict:
    """Per entry: the cost model fitted to its measurements and its largest relative error there."""
    entries = {}
    for entry in sorted({m["entry"] for m in measurements}):
        names = cost_model.kind_of(entry).features
        rows = [(cost_model.features(entry, m["input_dims"], m["filter_dims"], m["output_dims"], m["stride"],
                                     m["padding"]), m["instructions"])
                for m in measurements if m["entry"] == entry]
        coefficients = dict(zip(names, cost_model.fit(rows, names)))
        worst = max(abs(cost_model.predict(coefficients, f) - y) / y for f, y in rows)
        entries[entry] = {"coefficients": coefficients, "max_relative_error": round(worst + 0.0005, 3),
                          "measured_calls": len(rows)}
    return entries


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tools/measure_kernel_costs", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--flavour", action="append", choices=sorted(FLAVOURS),
                        help="flavours to measure (default: all; ns-cmsis-nn ones need HELIA_NS_CMSIS_NN_DIR)")
    parser.add_argument("--out", type=Path, default=cost_model.DATA_DIR)
    parser.add_argument("--work-dir", type=Path)
    parser.add_argument("--refit", action="store_true",
                        help="fit the models again to the tables' own measurements (after a change of features); "
                             "measures nothing")
    args = parser.parse_args(argv)
    if args.refit:
        for path in sorted(args.out.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            data["entries"] = fit_entries(data["measurements"])
            path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            print(f"[measure_kernel_costs] refitted {path.name}", file=sys.stderr)
        return 0
    flavours = args.flavour or sorted(FLAVOURS)
    command = "tools/measure_kernel_costs" + "".join(f" --flavour {f}" for f in flavours)
    try:
        with tempfile.TemporaryDirectory(prefix="helia-costs-") as tmp:
            work = args.work_dir.resolve() if args.work_dir else Path(tmp)
            work.mkdir(parents=True, exist_ok=True)
            for flavour in flavours:
                print(f"[measure_kernel_costs] {flavour}: building and running", file=sys.stderr, flush=True)
                data = measure(flavour, work)
                data = {"command": command, "date": datetime.date.today().isoformat(),
                        "tools": {"arm_gcc": toolchain.run([toolchain.ARM_CC, "--version"], "gcc").splitlines()[0],
                                  "qemu": toolchain.run([toolchain.QEMU, "--version"], "qemu").splitlines()[0]},
                        **data}
                args.out.mkdir(parents=True, exist_ok=True)
                path = args.out / f"{flavour}.json"
                path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
                worst = max((e["max_relative_error"] for e in data["entries"].values()), default=0)
                print(f"[measure_kernel_costs] {flavour}: {len(data['measurements'])} calls, "
                      f"{len(data['entries'])} entries, worst fit error {worst:.1%} -> {path}", file=sys.stderr,
                      flush=True)
    except toolchain.BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(shlex.join(["done:", *flavours]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
