# SPDX-License-Identifier: Apache-2.0
"""Emission stages: operator bodies, the constant table, and the module's files.

`render_operators` turns each lowered step into its C body following the memory layout. The
bodies are the one source of two facts: which constant tensors the module stores (those a body
reads) and which kernel symbols it calls (those a body calls). `constant_table` orders the
constants; `module_files` renders the headers and sources. None of them decides anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from . import codegen, kernel_library
from .ir import Graph
from .lowering import Step
from .options import ConversionOptions
from .planner import MemoryLayout
from .version import __version__, ns_cmsis_nn_required_packed, ns_cmsis_nn_required_str

_CALL = re.compile(r"\b(arm_[A-Za-z0-9_]+)\s*\(")
# C99 <math.h> functions inline float C may call; a module calling one includes <math.h> and links libm.
_LIBM_CALL = re.compile(r"\b(expf|tanhf|logf|sqrtf|fabsf|floorf|roundf|erfcf)\s*\(")
_CTYPE_BYTES = {"int8_t": 1, "uint8_t": 1, "uint32_t": 4, "int16_t": 2, "int32_t": 4, "int64_t": 8, "float": 4,
                "float16_t": 2, "uint16_t": 2, "uint64_t": 8}
# helia-aot's own kernels of TFLM's Signal operators (kernels/portable/include/helia_signal.h), beside
# ns-cmsis-nn's API: a module calling one includes that header.
_SIGNAL_CALL = re.compile(r"\b(helia_signal_[A-Za-z0-9_]+)\s*\(")


@dataclass(frozen=True)
class OperatorCode:
    position: int
    body: str | None  # None for aliases (no code)
    notes: tuple[str, ...]
    uses_arena: bool
    calls: tuple[str, ...]  # kernel symbols the body calls, in order of first call
    tensor_constants: tuple[int, ...]  # constant tensors the body reads, in order of first read
    uses_persistent: bool = False  # the body addresses a variable tensor or internal state (persistent arena)


@dataclass(frozen=True)
class Constant:
    symbol: str
    ctype: str
    values: np.ndarray
    comment: str
    id: str
    kind: str  # "tensor" or "derived"
    bytes: int
    alignment: int = codegen.CONSTANT_ALIGNMENT


@dataclass(frozen=True)
class ConstantTable:
    constants: tuple[Constant, ...]
    operator_bytes: dict[int, int]  # step position -> bytes of the constants it reads

    @property
    def total_bytes(self) -> int:
        return sum(c.bytes for c in self.constants)


def tensor_symbol(prefix: str, t: int) -> str:
    return f"{prefix}_t{t}"


def derived_symbol(prefix: str, position: int, suffix: str) -> str:
    return f"{prefix}_op{position}_{suffix}"


def render_operators(graph: Graph, steps: list[Step], layout: MemoryLayout,
                     options: ConversionOptions) -> list[OperatorCode]:
    prefix = options.prefix
    result = []
    for s in steps:
        low = s.lowering
        derived = {c.suffix: derived_symbol(prefix, s.position, c.suffix) for c in low.constants}
        reads: list[int] = []
        uses_arena = [False]
        uses_persistent = [False]

        def tensor_expr(t, as_ctype=None, _reads=reads, _flag=uses_arena, _state=uses_persistent):
            """A pointer to tensor t; as_ctype views arena bytes as another element type (a float16
            storage conversion reads the bits as uint16_t, needing no half type). A variable tensor
            (state) points into the persistent arena."""
            if t is None or t < 0:
                return "NULL"
            tensor = graph.tensors[t]
            if tensor.is_constant:
                if t not in _reads:
                    _reads.append(t)
                return tensor_symbol(prefix, t)
            state_offset = layout.persistent_offset(t) if tensor.is_variable else None
            if state_offset is not None:
                _state[0] = True
                return f"({as_ctype or codegen.c_type(tensor.dtype)} *)(persistent + {state_offset})"
            _flag[0] = True
            return f"({as_ctype or codegen.c_type(tensor.dtype)} *)(arena + {layout.tensor_offset(t)})"

        def state_expr(suffix, ctype, _pos=s.position, _state=uses_persistent):
            """A pointer to the operator's internal state `suffix` (Lowered.state), persistent arena."""
            _state[0] = True
            return f"({ctype} *)(persistent + {layout.state_offset(_pos, suffix)})"

        body = None
        notes = []
        if low.alias:
            notes.append(f"alias: output '{graph.tensors[s.op.outputs[0]].name}' reuses the input's bytes "
                         f"at arena offset {layout.tensor_offset(s.op.outputs[0])}; no code")
        else:
            scratch_off = layout.arena.scratch_offset(s.position)
            if scratch_off is not None:
                uses_arena[0] = True
            body = codegen.render(
                low.template, p=low.params, entry=low.entry, tensor=tensor_expr,
                const=lambda suffix, _d=derived: _d[suffix],
                const_ptr=lambda suffix, _d=derived: f"HELIA_UNCONST(void *, {_d[suffix]})" if suffix in _d else "NULL",
                const_bytes=lambda suffix, _d=derived: f"(int32_t)sizeof({_d[suffix]})" if suffix in _d else "0",
                scratch_ptr=f"arena + {scratch_off}" if scratch_off is not None else "NULL",
                scratch_bytes=low.scratch_bytes, prefix=prefix, state=state_expr,
            ).rstrip("\n")
            notes.append(f"entry: {low.entry or 'inline C'}; scratch {low.scratch_bytes} B"
                         + (f" at arena offset {scratch_off}" if scratch_off is not None else ""))
        calls = tuple(dict.fromkeys(_CALL.findall(body or "")))
        result.append(OperatorCode(s.position, body, tuple(notes), uses_arena[0], calls, tuple(reads),
                                   uses_persistent[0]))
    return result


def constant_table(graph: Graph, steps: list[Step], code: list[OperatorCode], prefix: str,
                   persistent=()) -> ConstantTable:
    """Every constant the module stores, in emission order: per operator its derived arrays, then the
    constant tensors it is first to read; last, the initial values of variable tensors that have one
    (`persistent`: the layout's persistent buffers)."""
    constants: list[Constant] = []
    stored: dict[int, Constant] = {}
    operator_bytes: dict[int, int] = {}
    for s, c in zip(steps, code):
        used = 0
        for d in s.lowering.constants:
            values = np.asarray(d.values)
            entry = Constant(symbol=derived_symbol(prefix, s.position, d.suffix), ctype=d.ctype, values=values,
                             comment=f"[{s.position}] {s.op_id}: {d.comment}", id=f"{s.op_id}/{d.suffix}",
                             kind="derived", bytes=int(values.size) * _CTYPE_BYTES[d.ctype])
            constants.append(entry)
            used += entry.bytes
        for t in c.tensor_constants:
            if t not in stored:
                tensor = graph.tensors[t]
                stored[t] = Constant(symbol=tensor_symbol(prefix, t), ctype=codegen.c_type(tensor.dtype),
                                     values=tensor.data,
                                     comment=f"tensor {t} '{tensor.name}' {list(tensor.shape)} {tensor.dtype}",
                                     id=tensor.name, kind="tensor", bytes=tensor.nbytes)
                constants.append(stored[t])
        used += sum(stored[t].bytes for t in s.op.inputs if t in stored)
        operator_bytes[s.position] = used
    for b in persistent:
        if b.initial == "data":
            tensor = graph.tensors[b.tensor]
            values = np.asarray(tensor.initial).astype(tensor.dtype if tensor.dtype != "bool" else "uint8")
            constants.append(Constant(symbol=persistent_init_symbol(prefix, b.tensor),
                                      ctype=codegen.c_type(tensor.dtype), values=values,
                                      comment=f"initial value of variable tensor {b.tensor} '{tensor.name}' "
                                              f"{list(tensor.shape)} {tensor.dtype} (<prefix>_model_reset)",
                                      id=f"{tensor.name}/initial", kind="derived", bytes=tensor.nbytes))
    return ConstantTable(tuple(constants), operator_bytes)


def persistent_init_symbol(prefix: str, t: int) -> str:
    return f"{prefix}_v{t}_initial"


def variant_switches(steps: list[Step]) -> list[str]:
    """The switches variants declare beyond the float entries they call: inline C naming float16_t
    needs ARM_NN_ENABLE_F16 for the type. An alias emits no code (a float16 RESHAPE needs nothing)."""
    return sorted({sw for s in steps if not s.lowering.alias for sw in s.variant.switches})


def module_files(graph: Graph, steps: list[Step], code: list[OperatorCode], layout: MemoryLayout,
                 table: ConstantTable, options: ConversionOptions, sha256: str) -> dict[str, str]:
    """Relative path -> text of every header and source of the module."""
    prefix = options.prefix
    ops_out = [dict(position=s.position, op_type=s.op.op_type, id=s.op_id,
                    notes=list(c.notes), body=c.body, uses_arena=c.uses_arena, uses_persistent=c.uses_persistent)
               for s, c in zip(steps, code)]
    constants = [dict(symbol=c.symbol, ctype=c.ctype, count=max(int(np.asarray(c.values).size), 1),
                      comment=c.comment, alignment=c.alignment,
                      body=codegen.format_array_body(c.values, c.ctype)) for c in table.constants]
    common = dict(
        prefix=prefix, PREFIX=prefix.upper(), version=__version__, sha256=sha256, subgraph=graph.name,
        target=options.target.name, cmsis_required=ns_cmsis_nn_required_str(),
        cmsis_required_packed=ns_cmsis_nn_required_packed(),
        arena_bytes=layout.arena.arena_bytes, arena_alignment=layout.arena.alignment, arena_mode=options.arena,
        inputs=[dict(offset=layout.tensor_offset(t), bytes=graph.tensors[t].nbytes) for t in graph.inputs],
        outputs=[dict(offset=layout.tensor_offset(t), bytes=graph.tensors[t].nbytes) for t in graph.outputs],
        switches=sorted(set(kernel_library.library_switches(symbol for c in code for symbol in c.calls))
                        | set(variant_switches(steps))),
        libm=any(_LIBM_CALL.search(c.body or "") for c in code),
        signal=any(_SIGNAL_CALL.search(c.body or "") for c in code),
        # Stateful modules only (a stateless module's files do not change): the persistent arena and
        # what <prefix>_model_reset writes into each of its buffers.
        persistent_bytes=layout.persistent_bytes,
        persistent=[dict(offset=b.offset, bytes=b.size, initial=b.initial, fill=b.fill, tensor=b.tensor,
                         name=graph.tensors[b.tensor].name if b.tensor is not None else b.name,
                         symbol=persistent_init_symbol(prefix, b.tensor) if b.initial == "data" else None)
                    for b in layout.persistent],
    )
    return {
        f"include/{prefix}_common.h": codegen.render(
            "common.h.j2", file_role=f"{prefix}_common.h: shared macros and the ns-cmsis-nn version check", **common),
        f"include/{prefix}_model.h": codegen.render(
            "model.h.j2", file_role=f"{prefix}_model.h: the module's C API", **common),
        f"include/{prefix}_constants.h": codegen.render(
            "constants.h.j2", file_role=f"{prefix}_constants.h: declarations of the read-only data",
            constants=constants, **common),
        f"src/{prefix}_constants.c": codegen.render(
            "constants.c.j2", file_role=f"{prefix}_constants.c: weights, biases and derived tables (read-only)",
            constants=constants, **common),
        f"src/{prefix}_model.c": codegen.render(
            "model.c.j2", file_role=f"{prefix}_model.c: arena plan and operator schedule", ops=ops_out,
            output_copies=[], **common),
    }
