# SPDX-License-Identifier: Apache-2.0
"""A model is untrusted input: hostile strings in it never become generated code.

Every string field of a model (subgraph, tensor and metadata names, custom codes, signature keys,
the description) is set to something hostile: comment terminators followed by preprocessor lines,
trigraphs, backslash-newlines, control bytes, non-ASCII and invalid UTF-8, very long names. The
same model with plain names is converted next to it, and the two modules must compile to the same
thing: the same preprocessed token stream line by line (macros and includes too), no symbol the
headers do not declare, byte-identical objects. The one difference allowed is data: the interface
descriptors and the observer's operator ids carry the names as string literals, which must read
back as exactly the hostile names (so <prefix>_model.c's object differs in its strings only). The
plan and report stay valid JSON and carry the hostile names exactly.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import flatbuffers
import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

import helia_aot
from helia_aot.emit.c_syntax import COMMENT_TEXT_LIMIT, c_comment_text
from helia_aot.errors import UnsupportedModelError
from helia_aot.record.plan_model import plan_schema, report_schema
from helia_aot.record.schema import validate
from tests.modelgen import ModelBuilder

from .helpers import REPO, mlperf_model, ns_cmsis_nn_dir, require_gcc

FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]

# The injection, then one family of hostile text per entry. Model names stay NUL-free
# (LiteRT's C++ reads them as C strings); c_comment_text's own tests below include NUL.
INJECTION = "x */\n#ifndef INJ\n#define INJ\nint injected_by_model = 1;\n#endif\n/* "
HOSTILE: list[bytes] = [
    INJECTION.encode(),
    b"??/\n??=define TRI 1\n??( ??) ??< ??> ??' ??! ??- ???/",
    b"back\\\nslash \\ at the end \\",
    bytes(range(1, 32)) + b"\x7f",
    "é ñ 日本語 \U0001F600 \u2028 \u202e evil \u0085".encode(),
    b"*/ /* // \" ' %s %n ${x} {{ x }} {% raw %} #include <stdio.h>",
    b"\xff\xfe invalid utf-8 \xc3",
    b"*",
    b"/",
    b"?",
    (INJECTION.encode() + b"A" * 97) * 60,
]


def hostile_name(kind: str, i: int) -> bytes:
    return HOSTILE[i % len(HOSTILE)] + f" {kind}{i}".encode()


def plain_name(kind: str, i: int) -> bytes:
    # Delimited so that no plain name is a prefix of another (T1Q, T10Q) when substituted below.
    return f"{kind[0].upper()}{i}Q".encode()


def rewrite_strings(data: bytes, name) -> bytes:
    """The model with every string field replaced by name(kind, index), through the object API."""
    m = schema.ModelT.InitFromPackedBuf(data, 0)
    m.description = name("description", 0)
    for s, sg in enumerate(m.subgraphs):
        sg.name = name("subgraph", s)
        for i, t in enumerate(sg.tensors or []):
            t.name = name("tensor", 1000 * s + i)
    m.operatorCodes = list(m.operatorCodes or [])
    for i, oc in enumerate(m.operatorCodes):
        if oc.customCode is not None:
            oc.customCode = name("custom", i)
    unused = schema.OperatorCodeT()  # a code no operator uses: the front end must not need it
    unused.builtinCode = unused.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
    unused.customCode = name("custom", len(m.operatorCodes))
    unused.version = 1
    m.operatorCodes.append(unused)
    m.buffers = list(m.buffers or [])
    extra = schema.BufferT()
    extra.data = np.frombuffer(name("metadata", 99), dtype=np.uint8)
    m.buffers.append(extra)
    m.metadata = list(m.metadata or [])
    for i, md in enumerate(m.metadata):
        md.name = name("metadata", i)
    added = schema.MetadataT()
    added.name = name("metadata", len(m.metadata))
    added.buffer = len(m.buffers) - 1
    m.metadata.append(added)
    for i, sd in enumerate(m.signatureDefs or []):
        sd.signatureKey = name("signature", i)
        for j, tm in enumerate((sd.inputs or []) + (sd.outputs or [])):
            tm.name = name("signature", 100 * (i + 1) + j)
    fbb = flatbuffers.Builder(1024)
    fbb.Finish(m.Pack(fbb), file_identifier=b"TFL3")
    return bytes(fbb.Output())


def builder_model(int16: bool = False) -> bytes:
    """Operators whose comments carry names: MVE weight sums (CONV_2D), an alias note (RESHAPE),
    FULLY_CONNECTED and SOFTMAX; with int16, an A16W8 FULLY_CONNECTED whose int32 bias is widened to
    int64 (a derived constant whose comment names the bias)."""
    rng = np.random.default_rng(7)
    b = ModelBuilder()
    x = b.input("x", (1, 6, 6, 3), scale=0.05, zero_point=-2)
    w = b.const("w", rng.integers(-127, 128, (4, 3, 3, 3)), dtype="int8", scale=[0.01, 0.02, 0.03, 0.04],
                zero_point=0)
    bias = b.const("b", rng.integers(-500, 500, 4), dtype="int32",
                   scale=[0.05 * s for s in (0.01, 0.02, 0.03, 0.04)], zero_point=0)
    y = b.tensor("y", (1, 6, 6, 4), scale=0.1, zero_point=-128)
    b.op("CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_h": 1, "stride_w": 1,
                                         "fused_activation_function": "RELU"})
    flat = b.tensor("flat", (1, 144), scale=0.1, zero_point=-128)
    b.op("RESHAPE", [y], [flat], {"new_shape": [1, 144]})
    w2 = b.const("w2", rng.integers(-127, 128, (10, 144)), dtype="int8", scale=0.01, zero_point=0)
    logits = b.tensor("logits", (1, 10), scale=0.2, zero_point=3)
    b.op("FULLY_CONNECTED", [flat, w2, None], [logits])
    probs = b.tensor("probs", (1, 10), scale=1 / 256, zero_point=-128)
    b.op("SOFTMAX", [logits], [probs], {"beta": 1.0})
    b.output(probs)
    if int16:
        x16 = b.input("x16", (1, 8), dtype="int16", scale=0.001, zero_point=0)
        w3 = b.const("w3", rng.integers(-127, 128, (5, 8)), dtype="int8", scale=0.01, zero_point=0)
        b3 = b.const("b3", rng.integers(-1000, 1000, 5), dtype="int32", scale=0.001 * 0.01, zero_point=0)
        z = b.tensor("z", (1, 5), dtype="int16", scale=0.002, zero_point=0)
        b.op("FULLY_CONNECTED", [x16, w3, b3], [z], {"quantized_bias_type": "INT32"})
        b.output(z)
    return b.build()


# -- the escaping function ---------------------------------------------------------------------

def unescape(text: str) -> str:
    """Inverse of c_comment_text for text under the length limit."""
    raw = re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), text.encode("ascii"))
    return raw.decode("utf-8")


def _samples() -> list[str]:
    rng = random.Random(14)
    alphabet = "*/?\\\n\r\t\x00\x01\x1b\x7f\x85 aZ09_#\"'=()<>!-é日\U0001F600\u2028"
    found = [h.decode("utf-8", "replace") for h in HOSTILE[:-1]]
    found += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24))) for _ in range(2000)]
    return found


def test_comment_text_is_printable_ascii_without_delimiters_and_reads_back():
    for text in _samples():
        out = c_comment_text(text)
        assert all(0x20 <= ord(c) < 0x7F for c in out), (text, out)
        for bad in ("*/", "/*", "??"):
            assert bad not in out, (text, out)
        assert not out.endswith("\\")
        assert unescape(out) == text


def test_comment_text_is_safe_next_to_any_template_text():
    """The template text around it cannot complete a delimiter or trigraph with its first or last
    character either. (Empty text leaves the template's two sides touching: their business.)"""
    sides = ["", "*", "/", "?", "??", " "]
    for text in [t for t in _samples()[:300] if t]:
        out = c_comment_text(text)
        for left in sides:
            for right in sides:
                joined = left + out + right
                for bad in ("*/", "/*", "??"):
                    for at in (m.start() for m in re.finditer(re.escape(bad), joined)):
                        inside_left = at + 2 <= len(left)
                        inside_right = at >= len(left) + len(out)
                        assert inside_left or inside_right, (left, text, right, joined)


def test_comment_text_leaves_ordinary_names_alone():
    for name in ("main:functional_1/conv2d/Conv2D;bias:0", "tensor 3 'x' [1, 4] int8", "a*b/c?d", "#1"):
        assert c_comment_text(name) == name


def test_comment_text_shortens_very_long_text_keeping_both_ends():
    text = "head" + "x" * 10_000 + "tail"
    out = c_comment_text(text)
    assert out.startswith("head") and out.endswith("tail")
    assert len(out) < COMMENT_TEXT_LIMIT + 100
    assert f"[{len(text) - COMMENT_TEXT_LIMIT} characters left out]" in out


# -- whole modules -----------------------------------------------------------------------------

_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*'
                    r'|[A-Za-z_][A-Za-z0-9_]*|<<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-*/%+&^|]='
                    r'|##|\S')


def token_lines(text: str, literal=None) -> list[list[str]]:
    """The tokens per line; `literal` maps the text a string literal holds (as C reads it)."""
    lines = [_TOKEN.findall(line) for line in text.splitlines()]
    if literal is None:
        return lines
    return [[repr(literal(c_literal_text(t))) if t.startswith('"') else t for t in line] for line in lines]


def c_literal_text(token: str) -> str:
    """What a C string literal holds, as the compiler reads its escapes (helia-aot writes octal ones)."""
    body, out, i = token[1:-1], bytearray(), 0
    while i < len(body):
        if body[i] == "\\":
            digits = re.match(r"[0-7]{1,3}", body[i + 1:i + 4])
            if digits:
                out.append(int(digits.group(), 8))
                i += 1 + len(digits.group())
                continue
            i += 1
        out += body[i].encode()
        i += 1
    return out.decode("utf-8", "replace")


# A module for an MVE core may call our Helium kernels (kernels/helium) and then includes their header.
HELIUM_INCLUDE = REPO / "kernels" / "helium" / "include"


def kernel_include(kind: str) -> Path:
    """ns-cmsis-nn's headers when configured (the int16 model needs them: the portable kernels have
    no s16 entries yet), else the portable kernels' copy of the same API."""
    if kind == "builder_int16" or os.environ.get("HELIA_NS_CMSIS_NN_DIR"):
        return ns_cmsis_nn_dir() / "Include"
    return REPO / "kernels" / "portable" / "include"


def preprocess(gcc: str, module: Path, source: str, include: Path) -> str:
    """The compiler's view of one file: trigraphs and splices applied, comments gone, macro
    definitions (-dD) and includes (-dI) kept, line markers kept. Run from the module's folder
    with relative paths, so the text does not depend on where the module lives."""
    proc = subprocess.run([gcc, *FLAGS, "-E", "-dD", "-dI", source, "-I", "include", "-I", str(include),
                           "-I", str(HELIUM_INCLUDE)], cwd=module, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def compile_object(compiler: list[str], module: Path, source: str, include: Path, obj: Path) -> bytes:
    proc = subprocess.run([*compiler, *FLAGS, "-c", source, "-I", "include", "-I", str(include),
                           "-I", str(HELIUM_INCLUDE), "-o", str(obj)], cwd=module, capture_output=True, text=True)
    assert proc.returncode == 0, f"{source} does not compile:\n{proc.stderr[-3000:]}"
    return obj.read_bytes()


def defined_symbols(obj: Path) -> set[tuple[str, str]]:
    proc = subprocess.run(["nm", "-P", "--defined-only", str(obj)], capture_output=True, text=True, check=True)
    return {tuple(line.split()[:2]) for line in proc.stdout.splitlines()}


def header_identifiers(module: Path) -> set[str]:
    names: set[str] = set()
    for header in (module / "include").glob("*.h"):
        names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", header.read_text()))
    return names


def sources(module: Path) -> list[str]:
    return sorted(str(p.relative_to(module)) for p in (module / "src").glob("*.c")) + \
        sorted(str(p.relative_to(module)) for p in (module / "test").glob("*.c"))


def substitute(value, table: dict[str, str]):
    """The plain module's JSON with each plain name replaced by its hostile counterpart."""
    if isinstance(value, dict):
        return {k: substitute(v, table) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, table) for v in value]
    if isinstance(value, str):
        return re.sub(r"[A-Z][0-9]+Q", lambda m: table.get(m.group(0), m.group(0)), value)
    return value


def without_model_hash(doc: dict) -> dict:
    doc = json.loads(json.dumps(doc))
    doc["model"]["sha256"] = None
    return doc


def _model(kind: str) -> bytes:
    if kind.startswith("builder"):
        return builder_model(int16=kind == "builder_int16")
    return mlperf_model("ad01_int8").read_bytes()


@pytest.mark.parametrize("target", ["corstone300", "host"])
@pytest.mark.parametrize("kind", ["builder", "builder_int16", "ad01_int8"])
def test_hostile_names_change_nothing_but_comments(tmp_path, kind, target):
    gcc = require_gcc()
    include = kernel_include(kind)
    original = _model(kind)
    plain_data = rewrite_strings(original, plain_name)
    hostile_data = rewrite_strings(original, hostile_name)
    plain = helia_aot.convert(plain_data, tmp_path / "plain", prefix="m", target=target, with_test_data=True,
                              num_test_samples=1)
    hostile = helia_aot.convert(hostile_data, tmp_path / "hostile", prefix="m", target=target,
                                with_test_data=True, num_test_samples=1)
    assert plain.files == hostile.files

    # C: printable ASCII only, and the hostile text really is in the comments (escaped).
    texts = {rel: (hostile.output_dir / rel).read_bytes() for rel in hostile.files if rel.endswith((".c", ".h"))}
    for rel, raw in texts.items():
        assert all(b in (0x0A,) or 0x20 <= b < 0x7F for b in raw), f"{rel} has bytes outside printable ASCII"
    header = texts["src/m_model.c"].decode()
    assert c_comment_text(hostile_name("subgraph", 0).decode()) in header
    assert "injected_by_model" in texts["src/m_constants.c"].decode()  # as comment text only (see nm below)

    table = {plain_name("subgraph", 0).decode(): hostile_name("subgraph", 0).decode("utf-8", "replace")}
    m = schema.ModelT.InitFromPackedBuf(original, 0)
    for i in range(len(m.subgraphs[0].tensors)):
        table[plain_name("tensor", i).decode()] = hostile_name("tensor", i).decode("utf-8", "replace")

    api = header_identifiers(hostile.output_dir)
    compilers = [[gcc]]
    cross = shutil.which("arm-none-eabi-gcc")
    if cross is not None and target == "corstone300":
        compilers.append([cross, "--specs=picolibc.specs", "-mcpu=cortex-m55", "-mfloat-abi=hard", "-mthumb",
                          "-O2"])
    for src in sources(hostile.output_dir):
        assert (plain.output_dir / src).read_bytes() != (hostile.output_dir / src).read_bytes() or \
            src.startswith("test/"), f"{src}: the hostile names left no trace; the test proves nothing"
        # Same tokens, macros, includes and line structure as with plain names; string literals
        # hold the hostile names exactly where the plain module's hold the plain ones.
        assert token_lines(preprocess(gcc, hostile.output_dir, src, include), literal=lambda v: v) == \
            token_lines(preprocess(gcc, plain.output_dir, src, include),
                        literal=lambda v: substitute(v, table)), src
        for n, compiler in enumerate(compilers):
            obj_h = tmp_path / f"h{n}.o"
            obj_p = tmp_path / f"p{n}.o"
            same = compile_object(compiler, hostile.output_dir, src, include, obj_h) == \
                compile_object(compiler, plain.output_dir, src, include, obj_p)
            assert same or src == "src/m_model.c", f"{src}: objects differ"
            symbols = defined_symbols(obj_h)
            assert symbols == defined_symbols(obj_p)
            if src.startswith("src/"):
                exported = {name for name, kind_ in symbols if kind_.isupper()}
                assert exported <= api, f"{src} defines {sorted(exported - api)}, which no header declares"
                assert not any("inj" in name.lower() for name, _ in symbols)

    # JSON: valid, schema-conforming, and the hostile names exactly where the plain ones were.
    for doc, check in (("m_plan.json", plan_schema()), ("m_report.json", report_schema())):
        got = json.loads((hostile.output_dir / doc).read_text(encoding="utf-8"))
        assert validate(got, check) == []
        expected = substitute(json.loads((plain.output_dir / doc).read_text(encoding="utf-8")), table)
        assert without_model_hash(got) == without_model_hash(expected)
    assert hostile.plan["model"]["subgraph"] == table["S0Q"]


def test_hostile_custom_code_is_refused_with_one_line_and_no_output(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (1, 4), scale=0.5, zero_point=0)
    y = b.tensor("y", (1, 4), scale=0.5, zero_point=0)
    b.op("RELU", [x], [y])
    b.output(y)
    m = schema.ModelT.InitFromPackedBuf(b.build(), 0)
    m.operatorCodes[0].builtinCode = m.operatorCodes[0].deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
    m.operatorCodes[0].customCode = INJECTION.encode() + b"\x1b[2J"
    fbb = flatbuffers.Builder(1024)
    fbb.Finish(m.Pack(fbb), file_identifier=b"TFL3")
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(bytes(fbb.Output()), tmp_path / "out")
    message = str(info.value)
    assert "CUSTOM:x */" in message
    assert message.isprintable(), repr(message)
    assert not (tmp_path / "out").exists()


def test_hostile_names_convert_under_an_ascii_locale(tmp_path):
    """The JSON files are UTF-8 whatever the locale (C locale, coercion off: Python's default text
    encoding is ASCII there)."""
    model = tmp_path / "hostile.tflite"
    model.write_bytes(rewrite_strings(builder_model(), hostile_name))
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0",
           "PYTHONPATH": str(REPO)}
    code = "import sys, helia_aot; helia_aot.convert(sys.argv[1], sys.argv[2], prefix='m')"
    proc = subprocess.run([sys.executable, "-c", code, str(model), str(tmp_path / "out")], env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    plan = json.loads((tmp_path / "out" / "m_plan.json").read_text(encoding="utf-8"))
    assert plan["model"]["subgraph"] == hostile_name("subgraph", 0).decode("utf-8", "replace")
