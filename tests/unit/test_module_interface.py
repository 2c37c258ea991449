# SPDX-License-Identifier: Apache-2.0
"""The module's interface as firmware sees it: <prefix>_model.h's macros and descriptor tables equal
what LiteRT's interpreter reports for the model, the quantize/dequantize helpers compute what
LiteRT's QUANTIZE and DEQUANTIZE compute, hostile tensor names reach C and Markdown escaped, the
run-time observer sees every operator once per run in order, and the plan's and report's
`interface` follow their schema (and a replayed plan's is checked). Host programs are built with gcc
against the portable kernels, under ASan/UBSan."""

from __future__ import annotations

import concurrent.futures
import json
import re
import shutil
import subprocess

import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from hypothesis import given, settings, strategies as st

import helia_aot
from helia_aot.emit.c_syntax import c_string_text
from helia_aot.emit.readme import markdown_text
from helia_aot.errors import InvalidConfigError
from helia_aot.record.plan_model import plan_schema, report_schema
from helia_aot.record.schema import validate
from tests.e2e import harness
from tests.modelgen.builder import ModelBuilder
from tests.modelgen.cases import CASES_DIR
from tests.sanitizers import SANITIZERS

from .helpers import REPO, portable_kernels_dir, require_gcc

FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
SANITIZE = ["-O1", "-g", *SANITIZERS]
KWS = REPO / "models" / "kws.tflite"
# Names a model may carry: C string and comment syntax, a trigraph, a newline, Markdown table
# syntax, HTML, non-ASCII and a backslash before a digit (an octal escape must not swallow it).
HOSTILE = ['in"put */ ??= \\1\n#define X', "out|put <b>&</b> `x` \u00e9\u4e2d \\\\077"]

_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "pfx_model.h"

static void print_info(const char *side, int32_t k, const pfx_tensor_info_t *t)
{
    int32_t d;
    const unsigned char *c;
    printf("%s %ld name=", side, (long)k);
    for (c = (const unsigned char *)t->name; *c; ++c) printf("%02x", *c);
    printf(" tensor=%ld dtype=%ld rank=%ld shape=", (long)t->tensor, (long)t->dtype, (long)t->rank);
    for (d = 0; d < t->rank; ++d) printf("%s%ld", d ? "," : "", (long)t->shape[d]);
    printf(" elements=%ld bytes=%ld num_scales=%ld axis=%ld scale=%a zero_point=%ld scales=", (long)t->elements,
           (long)t->bytes, (long)t->num_scales, (long)t->quant_axis, (double)t->scale, (long)t->zero_point);
    for (d = 0; d < t->num_scales; ++d) printf("%s%a", d ? "," : "", (double)t->scales[d]);
    printf(" zero_points=");
    for (d = 0; d < t->num_scales; ++d) printf("%s%ld", d ? "," : "", (long)t->zero_points[d]);
    printf("\n");
}

static void observe(void *user, int32_t index, const char *id, const char *type)
{
    const unsigned char *c;
    printf("op %ld %ld ", (long)*(int32_t *)user, (long)index);
    for (c = (const unsigned char *)id; *c; ++c) printf("%02x", *c);
    printf(" %s\n", type);
}

static pfx_model_context_t ctx;
static unsigned char bytes[1 << 18];
static float values[1 << 17];

int main(int argc, char **argv)
{
    int32_t k, run;
    size_t n;
    if (argc > 1 && strcmp(argv[1], "describe") == 0)
    {
        printf("api %ld %s\n", (long)PFX_API_VERSION, PFX_GENERATOR_VERSION);
        for (k = 0; k < PFX_NUM_INPUTS; ++k) print_info("input", k, &pfx_model_inputs[k]);
        for (k = 0; k < PFX_NUM_OUTPUTS; ++k) print_info("output", k, &pfx_model_outputs[k]);
        printf("macros %ld %ld %ld %ld\n", (long)PFX_INPUT0_ELEMENTS, (long)PFX_INPUT0_BYTES, (long)PFX_INPUT0_RANK,
               (long)PFX_OUTPUT0_BYTES);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "quantize") == 0)
    {   /* stdin: the floats of output 0; stdout: its codes, quantized by the output's descriptor */
        n = fread(values, sizeof(float), (size_t)pfx_model_outputs[0].elements, stdin);
        if (n != (size_t)pfx_model_outputs[0].elements) return 2;
        if (pfx_model_quantize(&pfx_model_outputs[0], values, bytes) != PFX_STATUS_OK) return 3;
        fwrite(bytes, 1, (size_t)pfx_model_outputs[0].bytes, stdout);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "dequantize") == 0)
    {   /* stdin: the codes of input 0; stdout: its floats, dequantized by the input's descriptor */
        n = fread(bytes, 1, (size_t)pfx_model_inputs[0].bytes, stdin);
        if (n != (size_t)pfx_model_inputs[0].bytes) return 2;
        if (pfx_model_dequantize(&pfx_model_inputs[0], bytes, values) != PFX_STATUS_OK) return 3;
        fwrite(values, sizeof(float), (size_t)pfx_model_inputs[0].elements, stdout);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "perchannel") == 0)
    {   /* stdin: rank, shape, axis, n, n scales, n zero points (int32 / float), the floats to quantize and
         * the int8 codes to dequantize; stdout: the codes, then the floats */
        static int32_t shape[8], zero_points[64];
        static float scales[64];
        static int8_t codes[4096];
        pfx_tensor_info_t info;
        memset(&info, 0, sizeof(info));
        info.dtype = PFX_DTYPE_INT8;
        if (fread(&info.rank, 4, 1, stdin) != 1 || info.rank > 8 || fread(shape, 4, (size_t)info.rank, stdin) != (size_t)info.rank) return 2;
        if (fread(&info.quant_axis, 4, 1, stdin) != 1 || fread(&info.num_scales, 4, 1, stdin) != 1 || info.num_scales > 64) return 2;
        if (fread(scales, 4, (size_t)info.num_scales, stdin) != (size_t)info.num_scales) return 2;
        if (fread(zero_points, 4, (size_t)info.num_scales, stdin) != (size_t)info.num_scales) return 2;
        info.shape = shape;
        info.scales = scales;
        info.zero_points = zero_points;
        info.elements = 1;
        for (k = 0; k < info.rank; ++k) info.elements *= shape[k];
        info.bytes = info.elements;
        if (info.elements > 4096 || fread(values, 4, (size_t)info.elements, stdin) != (size_t)info.elements) return 2;
        if (fread(codes, 1, (size_t)info.elements, stdin) != (size_t)info.elements) return 2;
        if (pfx_model_quantize(&info, values, bytes) != PFX_STATUS_OK) return 3;
        fwrite(bytes, 1, (size_t)info.elements, stdout);
        if (pfx_model_dequantize(&info, codes, values) != PFX_STATUS_OK) return 3;
        fwrite(values, 4, (size_t)info.elements, stdout);
        return 0;
    }
    /* observe: the observer's calls over two runs, then none once it is cleared; init must clear
     * what a context's memory held before (firmware need not zero it) */
    memset(&ctx, 0xa5, sizeof(ctx));
    if (pfx_model_set_observer(NULL, observe, &run) != PFX_STATUS_NULL_CONTEXT) return 4;
    if (pfx_model_set_observer(&ctx, observe, &run) != PFX_STATUS_NOT_INITIALIZED) return 5;
    if (pfx_model_quantize_input(&ctx, 0, values) != PFX_STATUS_NOT_INITIALIZED) return 6;
    if (pfx_model_init(&ctx) != PFX_STATUS_OK) return 7;
    if (pfx_model_run(&ctx) != PFX_STATUS_OK) return 15; /* no observer set: no call */
    if (pfx_model_quantize_input(&ctx, PFX_NUM_INPUTS, values) != PFX_STATUS_BAD_ARGUMENT) return 8;
    if (pfx_model_set_observer(&ctx, observe, &run) != PFX_STATUS_OK) return 9;
    for (run = 0; run < 2; ++run)
    {
        if (pfx_model_quantize_input(&ctx, 0, values) != PFX_STATUS_OK) return 10;
        if (pfx_model_run(&ctx) != PFX_STATUS_OK) return 11;
        if (pfx_model_dequantize_output(&ctx, 0, values) != PFX_STATUS_OK) return 12;
    }
    if (pfx_model_set_observer(&ctx, NULL, NULL) != PFX_STATUS_OK) return 13;
    if (pfx_model_run(&ctx) != PFX_STATUS_OK) return 14;
    printf("done\n");
    return 0;
}
"""


@pytest.fixture(scope="module")
def kernel_archive(tmp_path_factory) -> str:
    """The portable kernels built once (sanitized) as an archive each program links what it calls from."""
    gcc = require_gcc()
    kernels = portable_kernels_dir()
    work = tmp_path_factory.mktemp("kernels")
    sources = sorted((kernels / "src").rglob("*.c"))
    objects = [work / f"{i}.o" for i in range(len(sources))]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        procs = list(pool.map(lambda pair: subprocess.run(
            [gcc, *FLAGS, *SANITIZE, "-c", str(pair[0]), "-I", str(kernels / "include"), "-I", str(kernels / "src"),
             "-o", str(pair[1])], capture_output=True, text=True, timeout=600), zip(sources, objects)))
    assert all(p.returncode == 0 for p in procs), [p.stderr for p in procs if p.returncode][:1]
    archive = work / "libportable.a"
    subprocess.run(["ar", "rcs", str(archive), *map(str, objects)], check=True)
    return str(archive)


def _build(tmp_path, model, prefix: str, archive: str, defines=(), goal=None) -> tuple[object, object]:
    gcc = require_gcc()
    kernels = portable_kernels_dir()
    out = tmp_path / prefix
    result = helia_aot.convert(model, out, target="host", prefix=prefix, kernel_library="portable", goal=goal)
    main = tmp_path / f"{prefix}_main.c"
    main.write_text(_MAIN.replace("pfx", prefix).replace("PFX", prefix.upper()))
    sources = [str(p) for p in sorted(out.glob("src/*.c"))] + [str(main)]
    exe = tmp_path / f"{prefix}_exe"
    proc = subprocess.run([gcc, *FLAGS, *SANITIZE, *defines, *sources, "-I", str(out / "include"),
                           "-I", str(kernels / "include"), "-o", str(exe), archive, "-lm"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return exe, result


def _run(exe, mode: str, stdin: bytes = b"") -> bytes:
    proc = subprocess.run([str(exe), mode], input=stdin, capture_output=True, timeout=120)
    assert proc.returncode == 0, (proc.returncode, proc.stderr.decode(errors="replace")[-2000:])
    return proc.stdout


def _described(exe) -> dict:
    lines = _run(exe, "describe").decode().splitlines()
    api, tensors = lines[0].split(), {"input": [], "output": []}
    for line in lines[1:-1]:
        side, _, *fields = line.split(" ")
        entry = dict(f.split("=", 1) for f in fields)
        tensors[side].append(entry)
    return {"api": (int(api[1]), api[2]), "macros": [int(v) for v in lines[-1].split()[1:]], **tensors}


def _interpreter(model: bytes) -> Interpreter:
    interp = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interp.allocate_tensors()
    return interp


DTYPE_CODES = {"int8": 1, "uint8": 2, "int16": 3, "int32": 4, "float32": 10}


def _check_against_litert(described: dict, result, model: bytes) -> None:
    interp = _interpreter(model)
    for side, details, listed in (("input", interp.get_input_details(), result.inputs),
                                  ("output", interp.get_output_details(), result.outputs)):
        assert len(described[side]) == len(details) == len(listed)
        for c, want, entry in zip(described[side], details, listed):
            quant = want["quantization_parameters"]
            scales = [float(s) for s in quant["scales"]]
            zero_points = [int(z) for z in quant["zero_points"]]
            assert bytes.fromhex(c["name"]).decode("utf-8") == want["name"] == entry.name
            assert int(c["tensor"]) == want["index"] == entry.tensor
            assert int(c["dtype"]) == DTYPE_CODES[np.dtype(want["dtype"]).name]
            assert entry.dtype == np.dtype(want["dtype"]).name
            shape = [int(d) for d in c["shape"].split(",")] if c["shape"] else []
            assert shape == list(want["shape"]) == entry.shape and int(c["rank"]) == len(shape)
            assert int(c["elements"]) == int(np.prod(want["shape"])) == entry.elements
            assert int(c["bytes"]) == int(np.prod(want["shape"])) * np.dtype(want["dtype"]).itemsize == entry.bytes
            assert int(c["num_scales"]) == len(scales)
            got_scales = [float.fromhex(s) for s in c["scales"].split(",")] if c["scales"] else []
            got_zero_points = [int(z) for z in c["zero_points"].split(",")] if c["zero_points"] else []
            assert got_scales == [float(np.float32(s)) for s in scales]
            assert got_zero_points == zero_points
            if scales:
                assert entry.quantization.scale == got_scales and entry.quantization.zero_point == zero_points
                per_channel = len(scales) > 1
                assert int(c["axis"]) == (quant["quantized_dimension"] if per_channel else -1)
                assert entry.quantization.axis == (quant["quantized_dimension"] if per_channel else None)
                assert float.fromhex(c["scale"]) == got_scales[0] and int(c["zero_point"]) == zero_points[0]
            else:
                assert entry.quantization is None and int(c["axis"]) == -1


@pytest.mark.parametrize("case", ["add_broadcast", "add_int16_broadcast", "add_float32_broadcast_hw_c",
                                  "split_int16_axis0"])
def test_descriptors_equal_litert_details(tmp_path, kernel_archive, case):
    model = harness.case_model(CASES_DIR / f"{case}.yaml").model_bytes
    exe, result = _build(tmp_path, model, "m", kernel_archive)
    described = _described(exe)
    assert described["api"] == (result.api_version, helia_aot.__version__)
    _check_against_litert(described, result, model)
    assert described["macros"] == [result.inputs[0].elements, result.inputs[0].bytes, len(result.inputs[0].shape),
                                   result.outputs[0].bytes]
    assert result.plan["interface"] == result.report["interface"]
    assert [e.name for e in result.inputs] == [t["name"] for t in result.plan["interface"]["inputs"]]


@pytest.fixture(scope="module")
def kws_program(tmp_path_factory, kernel_archive):
    tmp = tmp_path_factory.mktemp("kws")
    # Layer by layer (goal latency): every operator runs on its own.
    exe, result = _build(tmp, KWS.read_bytes(), "kws", kernel_archive, goal="latency")
    return exe, result


def _observed(exe, result) -> list:
    """The observer's calls of two runs, and those the plan says to expect: one per operator that runs code
    (aliases have none), in execution order; a patch chain runs as one, observed as its last operator."""
    lines = _run(exe, "observe").decode().splitlines()
    assert lines[-1] == "done"
    seen = [line.split(" ")[1:] for line in lines[:-1]]
    inside_chains = {i for chain in result.plan["patches"] for i in chain["operators"][:-1]}
    ran = [o for o in result.plan["operators"] if o["alias_of"] is None and o["id"] not in inside_chains]
    want = [[str(run), str(o["index"]), o["id"].encode().hex(), o["op_type"]] for run in (0, 1) for o in ran]
    return seen, want


def test_kws_descriptors_and_observer(kws_program):
    exe, result = kws_program
    _check_against_litert(_described(exe), result, KWS.read_bytes())
    assert result.plan["patches"] == []
    seen, want = _observed(exe, result)
    assert seen == want
    assert len(want) >= 2 * 10


def test_observer_sees_a_patch_chain_once(tmp_path, kernel_archive):
    """KWS under goal size runs its first operators as one patch chain: the observer sees the chain once,
    as its last operator, then every operator after it."""
    exe, result = _build(tmp_path, KWS.read_bytes(), "kws", kernel_archive, goal="size")
    (chain,) = result.plan["patches"]
    assert len(chain["operators"]) >= 2
    seen, want = _observed(exe, result)
    assert seen == want
    observed_ids = {bytes.fromhex(s[2]).decode() for s in seen}
    assert chain["operators"][-1] in observed_ids and not observed_ids & set(chain["operators"][:-1])


def test_observer_compiled_out(tmp_path, kernel_archive):
    """-DHELIA_NO_OBSERVER leaves the operators' strings out of the object and refuses an observer."""
    exe, result = _build(tmp_path, KWS.read_bytes(), "kws", kernel_archive, defines=["-DHELIA_NO_OBSERVER"],
                         goal="latency")
    proc = subprocess.run([str(exe), "observe"], capture_output=True, timeout=120)
    assert proc.returncode == 9 and b"op " not in proc.stdout  # set_observer: KWS_STATUS_BAD_ARGUMENT
    gcc = require_gcc()
    ids = [o["id"].encode() for o in result.plan["operators"] if o["alias_of"] is None]
    for defines, present in (([], True), (["-DHELIA_NO_OBSERVER"], False)):
        obj = tmp_path / "model.o"
        subprocess.run([gcc, *FLAGS, *defines, "-c", str(result.output_dir / "src" / "kws_model.c"), "-I",
                        str(result.output_dir / "include"), "-I", str(portable_kernels_dir() / "include"),
                        "-o", str(obj)], check=True)
        assert all((i in obj.read_bytes()) == present for i in ids)


def _quantize_model(dtype: str, scale: float, zero_point: int, n: int) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, n), dtype="float32")
    y = b.tensor("y", (1, n), dtype=dtype, scale=scale, zero_point=zero_point)
    b.op("QUANTIZE", [x], [y])
    b.output(y)
    return b.build()


def _dequantize_model(dtype: str, scale: float, zero_point: int, n: int) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, n), dtype=dtype, scale=scale, zero_point=zero_point)
    y = b.tensor("y", (1, n), dtype="float32")
    b.op("DEQUANTIZE", [x], [y])
    b.output(y)
    return b.build()


QUANTIZATIONS = [("int8", 0.5882353186607361, 76), ("int8", 0.00390625, -128), ("int8", 0.1, 3),
                 ("int16", 3.0517578125e-05, 0), ("int16", 0.013, 0)]


def _litert(model: bytes, values: np.ndarray) -> np.ndarray:
    interp = _interpreter(model)
    interp.set_tensor(interp.get_input_details()[0]["index"], values)
    interp.invoke()
    return interp.get_tensor(interp.get_output_details()[0]["index"]).copy()


@pytest.mark.parametrize("dtype,scale,zero_point", QUANTIZATIONS)
def test_helpers_match_litert_quantize_and_dequantize(tmp_path, kernel_archive, dtype, scale, zero_point):
    info = np.iinfo(dtype)
    scale32 = np.float32(scale)
    # Ties (k + 1/2 scales, both signs), values around every code and far outside the range, zeros.
    k = np.arange(info.min - zero_point - 3, info.max - zero_point + 3, dtype=np.float64)
    if k.size > 4000:
        k = np.concatenate([k[:1000], k[k.size // 2 - 1000:k.size // 2 + 1000], k[-1000:]])
    rng = np.random.default_rng(5)
    values = np.concatenate([(k + 0.5) * scale32, (k - 0.5) * scale32, k * scale32,
                             rng.normal(0, float(scale32) * (info.max - info.min) / 4, 3000),
                             # far outside, where round(value / scale) still fits int32 (beyond it LiteRT's
                             # cast is undefined: test_quantize_is_defined_where_litert_is_not)
                             [0.0, -0.0, 1e6 * scale32, -1e6 * scale32, 2e9 * scale32, -2e9 * scale32]]
                            ).astype(np.float32)
    n = values.size
    exe, _ = _build(tmp_path, _quantize_model(dtype, scale, zero_point, n), "q", kernel_archive)
    got = np.frombuffer(_run(exe, "quantize", values.tobytes()), dtype=dtype)
    want = _litert(_quantize_model(dtype, scale, zero_point, n), values.reshape(1, n)).reshape(-1)
    bad = np.nonzero(got != want)[0]
    assert bad.size == 0, [(float(values[i]), int(got[i]), int(want[i])) for i in bad[:5]]

    codes = np.arange(info.min, info.max + 1, dtype=dtype)
    exe, _ = _build(tmp_path, _dequantize_model(dtype, scale, zero_point, codes.size), "d", kernel_archive)
    got = np.frombuffer(_run(exe, "dequantize", codes.tobytes()), dtype=np.float32)
    want = _litert(_dequantize_model(dtype, scale, zero_point, codes.size), codes.reshape(1, -1)).reshape(-1)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def _per_channel_model(op: str, shape, scales, zero_points, axis) -> bytes:
    b = ModelBuilder()
    q = dict(dtype="int8", scale=scales, zero_point=zero_points, quantized_dimension=axis)
    if op == "QUANTIZE":
        x = b.input("x", shape, dtype="float32")
        y = b.tensor("y", shape, **q)
    else:
        x = b.input("x", shape, **q)
        y = b.tensor("y", shape, dtype="float32")
    b.op(op, [x], [y])
    b.output(y)
    return b.build()


@pytest.mark.parametrize("shape,axis", [((2, 3, 4), 1), ((5, 2), 0), ((2, 2, 3), 2)])
def test_per_channel_helpers_match_litert(kws_program, shape, axis):
    """Per-channel quantization (helia-aot refuses per-channel model inputs today, so the descriptor is
    built by hand): each element takes its channel's scale and zero point, as LiteRT's per-channel
    QUANTIZE and DEQUANTIZE do."""
    exe, _ = kws_program
    channels = shape[axis]
    rng = np.random.default_rng(axis)
    scales = [float(np.float32(v)) for v in rng.uniform(0.01, 0.5, channels)]
    zero_points = [int(v) for v in rng.integers(-20, 20, channels)]
    n = int(np.prod(shape))
    values = rng.normal(0, 5, n).astype(np.float32)
    codes = rng.integers(-128, 128, n).astype(np.int8)
    stdin = (np.array([len(shape), *shape, axis, channels], dtype=np.int32).tobytes()
             + np.array(scales, dtype=np.float32).tobytes() + np.array(zero_points, dtype=np.int32).tobytes()
             + values.tobytes() + codes.tobytes())
    out = _run(exe, "perchannel", stdin)
    got_codes, got_values = np.frombuffer(out[:n], np.int8), np.frombuffer(out[n:], np.float32)
    want_codes = _litert(_per_channel_model("QUANTIZE", shape, scales, zero_points, axis), values.reshape(shape))
    want_values = _litert(_per_channel_model("DEQUANTIZE", shape, scales, zero_points, axis), codes.reshape(shape))
    assert np.array_equal(got_codes, want_codes.reshape(-1))
    assert np.array_equal(got_values.view(np.uint32), want_values.reshape(-1).view(np.uint32))


def test_quantize_is_defined_where_litert_is_not(tmp_path, kernel_archive):
    """NaN gives the zero point, infinities and values beyond int32 saturate (LiteRT's cast of them is
    undefined behaviour in C++, so it is no reference here; UBSan checks ours)."""
    values = np.array([np.nan, -np.nan, np.inf, -np.inf, 3e38, -3e38, 1e10, -1e10], dtype=np.float32)
    exe, _ = _build(tmp_path, _quantize_model("int8", 0.1, 3, values.size), "q", kernel_archive)
    got = np.frombuffer(_run(exe, "quantize", values.tobytes()), dtype=np.int8)
    assert got.tolist() == [3, 3, 127, -128, 127, -128, 127, -128]


def _hostile_model() -> bytes:
    b = ModelBuilder()
    x = b.input(HOSTILE[0], (1, 4), scale=0.5, zero_point=0)
    y = b.tensor(HOSTILE[1], (1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    b.output(y)
    return b.build()


def test_hostile_names_are_escaped_and_read_back(tmp_path, kernel_archive):
    model = _hostile_model()
    exe, result = _build(tmp_path, model, "h", kernel_archive)
    described = _described(exe)
    assert [bytes.fromhex(t["name"]).decode() for t in described["input"] + described["output"]] == HOSTILE
    _check_against_litert(described, result, model)
    for generated in ("include/h_model.h", "src/h_model.c"):
        lines = (result.output_dir / generated).read_text().splitlines()
        assert not any(line.lstrip().startswith("#define X") for line in lines)
    readme = (result.output_dir / "README.md").read_text()
    rows = [line for line in readme.splitlines() if line.startswith("| input |") or line.startswith("| output |")]
    assert len(rows) == 2 and all(line.count("|") - line.count("\\|") == 11 for line in rows)
    assert "<b>" not in readme and "`x`" not in readme


def test_header_compiles_for_cortex_m55(tmp_path):
    gcc = shutil.which("arm-none-eabi-gcc")
    if gcc is None:
        pytest.skip("arm-none-eabi-gcc not installed")
    kernels = portable_kernels_dir()
    for name, model in (("h", _hostile_model()), ("kws", KWS.read_bytes())):
        out = tmp_path / name
        helia_aot.convert(model, out, target="corstone300", prefix=name, kernel_library="portable")
        main = tmp_path / f"{name}_main.c"
        main.write_text(_MAIN.replace("pfx", name).replace("PFX", name.upper()))
        for src in [*sorted(out.glob("src/*.c")), main]:
            proc = subprocess.run([gcc, "-mcpu=cortex-m55", *FLAGS, "-c", str(src), "-I", str(out / "include"),
                                   "-I", str(kernels / "include"), "-I", str(REPO / "kernels" / "helium" / "include"),
                                   "-o", str(tmp_path / "x.o")],
                                  capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr


def _read_c_string(literal: str) -> bytes:
    """The bytes of a C string literal's inside, as a C compiler reads octal escapes."""
    out, i = bytearray(), 0
    while i < len(literal):
        if literal[i] == "\\":
            digits = re.match(r"[0-7]{1,3}", literal[i + 1:i + 4])
            assert digits, literal[i:i + 4]
            out.append(int(digits.group(), 8))
            i += 1 + len(digits.group())
        else:
            out += literal[i].encode()
            i += 1
    return bytes(out)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_c_string_reads_back_and_cannot_end_early(text):
    inside = c_string_text(text)
    assert _read_c_string(inside) == text.encode("utf-8", "surrogatepass")
    assert all(0x20 <= ord(c) < 0x7F for c in inside)
    assert '"' not in inside and "?" not in inside


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_markdown_text_keeps_a_table_row_whole(text):
    shown = markdown_text(text)
    assert all(0x20 <= ord(c) < 0x7F for c in shown)
    unescaped = re.sub(r"\\.", "", shown)
    for syntax in "|`<>*_[]":
        assert syntax not in unescaped


def test_plan_and_report_interface_follow_schema_and_replay(tmp_path):
    result = helia_aot.convert(KWS, tmp_path / "kws", prefix="kws", target="host")
    plan = json.loads((tmp_path / "kws" / "kws_plan.json").read_text())
    report = json.loads((tmp_path / "kws" / "kws_report.json").read_text())
    assert validate(plan, plan_schema()) == [] and validate(report, report_schema()) == []
    assert list(plan)[:2] == ["schema_version", "interface"] and list(report)[:2] == ["schema_version", "interface"]
    broken = json.loads(json.dumps(plan))
    broken["interface"]["inputs"][0]["dtype"] = "int7"
    assert any("interface.inputs[0].dtype" in e for e in validate(broken, plan_schema()))
    assert result.memory.scratch_arena_bytes == plan["memory"]["scratch_arena_bytes"]
    assert result.memory.constant_bytes == report["memory"]["constant_bytes"]
    assert "README.md" in result.files
    manifest = json.loads((tmp_path / "kws" / ".helia-aot-manifest.json").read_text())
    assert "README.md" in manifest["files"]

    # A replayed plan: the same interface is accepted, none is accepted (derived), another is refused.
    for name, edit in (("same", None), ("none", lambda p: p.pop("interface")),
                       ("other", lambda p: p["interface"]["inputs"][0]["shape"].append(1))):
        replay = json.loads(json.dumps(plan))
        if edit is not None:
            edit(replay)
        path = tmp_path / f"{name}_plan.json"
        path.write_text(json.dumps(replay))
        if name == "other":
            with pytest.raises(InvalidConfigError, match=r"interface\.inputs\[0\]\.shape: \[1, 49, 10, 1, 1\] in the "
                                                         r"plan, \[1, 49, 10, 1\] in this conversion"):
                helia_aot.convert(KWS, tmp_path / name, prefix="kws", target="host", plan=path)
            assert not (tmp_path / name).exists()
        else:
            again = helia_aot.convert(KWS, tmp_path / name, prefix="kws", target="host", plan=path)
            assert again.plan["interface"] == plan["interface"]


def test_readme_is_byte_identical_and_names_what_the_module_needs(tmp_path):
    model = harness.case_model(CASES_DIR / "add_float32_broadcast_hw_c.yaml").model_bytes
    first = helia_aot.convert(model, tmp_path / "a", prefix="f", target="corstone300", module_type="cmake")
    helia_aot.convert(model, tmp_path / "b", prefix="f", target="corstone300", module_type="cmake")
    text = (tmp_path / "a" / "README.md").read_text()
    assert text == (tmp_path / "b" / "README.md").read_text()
    for switch in re.findall(r"defined\((ARM_NN_ENABLE_\w+)\)", (tmp_path / "a" / "include" / "f_common.h").read_text()):
        assert f"-D{switch}=1" in text
    assert "target_link_libraries(app PRIVATE f_model)" in text
    assert f"| {first.memory.scratch_arena_bytes} (aligned to {first.memory.arena_alignment}) |" in text
    for t in first.inputs + first.outputs:
        assert f"| {t.dtype} | [{', '.join(map(str, t.shape))}] | {t.elements} | {t.bytes} |" in text


def test_stateless_context_keeps_its_api(tmp_path):
    """Firmware written for API 1 keeps compiling: every symbol it used is declared as before."""
    result = helia_aot.convert(KWS, tmp_path / "kws", prefix="kws", target="host")
    header = (result.output_dir / "include" / "kws_model.h").read_text()
    for declaration in ("int32_t kws_model_init(kws_model_context_t *ctx);",
                        "int32_t kws_model_run(kws_model_context_t *ctx);",
                        "void *kws_model_input(kws_model_context_t *ctx, int32_t i);",
                        "void *kws_model_output(kws_model_context_t *ctx, int32_t i);",
                        "int32_t kws_model_input_bytes(int32_t i);", "int32_t kws_model_output_bytes(int32_t i);",
                        "#define KWS_STATUS_OK (0)", "#define KWS_STATUS_BAD_ARENA (4)",
                        "#define KWS_NUM_INPUTS (1)", "int32_t failed_operator;"):
        assert declaration in header
