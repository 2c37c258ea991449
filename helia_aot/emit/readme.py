# SPDX-License-Identifier: Apache-2.0
"""README.md of a module: what a firmware engineer needs beside the headers. The interface (from the
plan), the memory the module takes (from the report), how to build it and which kernel libraries and
switches it needs (from the operator code, as <prefix>_common.h and the CMakeLists.txt say). Model
strings are escaped for Markdown: a model is untrusted input and the file is read rendered.
"""

from __future__ import annotations

from helia_aot.emit import c_syntax as codegen
from helia_aot.emit.module import _LIBM_CALL, _SIGNAL_CALL, own_kernels_called, variant_switches
from helia_aot.library.kernel_library import library_switches

# Characters Markdown (CommonMark, GitHub's tables) would read as syntax: each gets a backslash.
_MARKDOWN_SYNTAX = frozenset("\\`*_{}[]()#+-.!|~")
# Characters HTML inside Markdown would read as markup: each as its entity.
_HTML_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;"}
MARKDOWN_TEXT_LIMIT = codegen.COMMENT_TEXT_LIMIT


def markdown_text(text) -> str:
    """``text`` as inline Markdown that renders as the text itself: syntax characters escaped, HTML
    characters as entities, everything outside printable ASCII as ``\\xNN`` per UTF-8 byte (so no
    newline ends a table row and no control byte reaches a terminal), long text cut in the middle as
    generated comments are."""
    text = str(text)
    if len(text) > MARKDOWN_TEXT_LIMIT:
        half = MARKDOWN_TEXT_LIMIT // 2
        text = f"{text[:half]} ...[{len(text) - 2 * half} characters left out]... {text[-half:]}"
    out = []
    for ch in text:
        if ch in _HTML_ENTITIES:
            out.append(_HTML_ENTITIES[ch])
        elif ch in _MARKDOWN_SYNTAX:
            out.append("\\" + ch)
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append("".join(f"\\\\x{b:02x}" for b in ch.encode("utf-8", "surrogatepass")))
    return "".join(out)


def _tensor_rows(prefix: str, side: str, tensors: list[dict]) -> list[dict]:
    rows = []
    for t in tensors:
        q = t["quantization"]
        if q is None:
            quant = "none"
        elif q["axis"] is None:
            quant = f"scale {codegen.c_float(q['scale'][0])[:-1]}, zero point {q['zero_point'][0]}"
        else:
            quant = f"per channel on axis {q['axis']} ({len(q['scale'])} scales)"
        macro = f"{prefix.upper()}_{side.upper()}{t['index']}"
        rows.append(dict(index=t["index"], name=markdown_text(t["name"]), tensor=t["tensor"], dtype=t["dtype"],
                         shape="[" + ", ".join(str(d) for d in t["shape"]) + "]", elements=t["elements"],
                         bytes=t["bytes"], quantization=quant, macro=macro, row_padding=t.get("row_padding")))
    return rows


def readme(plan: dict, report: dict, steps, code, options, files: dict[str, str]) -> str:
    """The text of the module's README.md; `plan` and `report` as JSON, `files` the module's other files."""
    prefix = options.prefix
    interface = plan["interface"]
    switches = sorted(set(library_switches(symbol for c in code for symbol in c.calls)) | set(variant_switches(steps)))
    memory = plan["memory"]
    return codegen.render(
        "README.md.j2", prefix=prefix, PREFIX=prefix.upper(), version=plan["generator"]["helia_aot"],
        cmsis_required=plan["generator"]["cmsis_nn_required"],
        model_file=markdown_text(plan["model"]["file"] or "(model bytes)"), sha256=plan["model"]["sha256"],
        subgraph=markdown_text(plan["model"]["subgraph"]), target=markdown_text(plan["platform"]["name"]),
        cpu=markdown_text(plan["platform"]["cpu"]), kernel_library=plan["kernel_library"]["name"],
        kernel_build=plan["kernel_library"]["build"], api_version=interface["api_version"],
        inputs=_tensor_rows(prefix, "input", interface["inputs"]),
        outputs=_tensor_rows(prefix, "output", interface["outputs"]),
        arena_mode=memory["arena"], arena_bytes=memory["scratch_arena_bytes"], arena_alignment=memory["arena_alignment"],
        persistent_bytes=memory["persistent_bytes"], constant_bytes=report["memory"]["constant_bytes"],
        memory_use=[dict(memory=markdown_text(m["memory"]), used=m["used"], free=m["free"],
                         holds=", ".join(f"{markdown_text(h['what'])} {h['bytes']} B" for h in m["holds"]))
                    for m in report["memory_use"] if m["used"]],
        stream_pool=report["stream_pool"], switches=switches,
        libm=any(_LIBM_CALL.search(c.body or "") for c in code),
        signal=any(_SIGNAL_CALL.search(c.body or "") for c in code), own_kernels=own_kernels_called(code),
        cmake="CMakeLists.txt" in files, operators=len(plan["operators"]),
        sources=sorted(rel for rel in files if rel.startswith("src/")),
    )
