# SPDX-License-Identifier: Apache-2.0
"""Emission stages: operator bodies, the constant table, and the module's files.

`render_operators` turns each lowered step into its C body following the memory layout. The
bodies are the one source of two facts: which constant tensors the module stores (those a body
reads) and which kernel symbols it calls (those a body calls). `constant_table` orders the
constants; `module_files` renders the headers and sources. None of them decides anything.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from helia_aot.emit import c_syntax as codegen, patch_code
from helia_aot.emit.interface import API_VERSION, model_interface
from helia_aot.library import kernel_library, own_kernels
from helia_aot.ir.dtypes import CTYPE_BYTES, CTYPE_NUMPY, DTYPES
from helia_aot.ir.graph import Graph
from helia_aot.lowering.lower import Step
from helia_aot.config.options import ConversionOptions
from helia_aot.record.plan_model import Interface
from helia_aot.memory.arena_planner import MemoryLayout
from helia_aot.emit.symbols import (arena_symbol, derived_symbol, persistent_init_symbol, staged_symbol,
                                     stream_pool_symbol, stream_source_symbol, tensor_symbol)
from helia_aot.version import __version__, ns_cmsis_nn_required_packed, ns_cmsis_nn_required_str

# Kernel calls: ns-cmsis-nn's (or the portable kernels') arm_* entries and those of our own kernel
# families (helia_aot.library.own_kernels: helia_mve_* in kernels/helium, helia_dsp_* in kernels/dsp).
_CALL = re.compile(r"\b((?:arm|%s)[A-Za-z0-9_]+)\s*\(" % "|".join(f.prefix for f in own_kernels.FAMILIES))


def own_kernels_called(code) -> list[dict]:
    """Our kernel families the operator bodies call, as the templates name them: the module includes each
    one's header and links its folder."""
    return [dataclasses.asdict(f) | {"cmake_variable": f.cmake_variable}
            for f in own_kernels.families_called(symbol for c in code for symbol in c.calls)]


# C99 <math.h> functions inline float C may call; a module calling one includes <math.h> and links libm.
_LIBM_CALL = re.compile(r"\b(expf|tanhf|logf|sqrtf|fabsf|floorf|roundf|erfcf)\s*\(")
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
    functions: tuple[str, ...] = ()  # C functions the module defines before the operators (patch chain bands)


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


def render_operators(graph: Graph, steps: list[Step], layout: MemoryLayout,
                     options: ConversionOptions, symbols: dict[str, str] | None = None,
                     patching=None) -> list[OperatorCode]:
    """`symbols` maps a constant's symbol to the expression its readers use instead (a staged copy
    or a stream pool slot; placement.expressions). `patching` (helia_aot.memory.patches) runs its
    chain's steps on bands of rows, the whole chain in its last step's body."""
    prefix = options.prefix
    symbols = symbols or {}
    result = []
    for s in steps:
        low = s.lowering
        derived = {c.suffix: symbols.get(derived_symbol(prefix, s.position, c.suffix),
                                         derived_symbol(prefix, s.position, c.suffix)) for c in low.constants}
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
                return symbols.get(tensor_symbol(prefix, t), tensor_symbol(prefix, t))
            state_offset = layout.persistent_offset(t) if tensor.is_variable else None
            if state_offset is not None:
                _state[0] = True
                return f"({as_ctype or codegen.c_type(tensor.dtype)} *)(persistent + {state_offset})"
            memory = layout.arena_of(t)
            if memory is not None:  # an activation placed in another memory's arena (memory.tensors)
                            return (f"({as_ctype or codegen.c_type(tensor.dtype)} *)"
                        f"({arena_symbol(prefix, memory)} + {layout.tensor_offset(t)})")
            _flag[0] = True
            return f"({as_ctype or codegen.c_type(tensor.dtype)} *)(arena + {layout.tensor_offset(t)})"

        def state_expr(suffix, ctype, _pos=s.position, _state=uses_persistent):
            """A pointer to the operator's internal state `suffix` (Lowered.state), persistent arena."""
            _state[0] = True
            return f"({ctype} *)(persistent + {layout.state_offset(_pos, suffix)})"

        body = None
        notes = []
        scratch_off = layout.arena.scratch_offset(s.position)

        def render(params, tensor, _low=low, _d=derived, _off=scratch_off, _state=state_expr):
            return codegen.render(
                _low.template, p=params, entry=_low.entry, tensor=tensor,
                const=lambda suffix: _d[suffix],
                const_ptr=lambda suffix: f"HELIA_UNCONST(void *, {_d[suffix]})" if suffix in _d else "NULL",
                const_bytes=lambda suffix: f"(int32_t)sizeof({_d[suffix]})" if suffix in _d else "0",
                scratch_ptr=f"arena + {_off}" if _off is not None else "NULL",
                scratch_bytes=_low.scratch_bytes, prefix=prefix, state=_state,
            ).rstrip("\n")

        if patching is not None and s.position in patching.chain.positions:
            functions, body, band_notes = patch_code.step_code(
                graph, layout, patching, prefix, s.position, low.params,
                lambda params, names, _render=render, _t=tensor_expr: _render(
                    params, lambda t, *a: names.get(t) or _t(t, *a)))
            calls = tuple(dict.fromkeys(_CALL.findall("\n".join(functions))))
            result.append(OperatorCode(s.position, body, band_notes, True, calls, tuple(reads), False, functions))
            continue
        if low.alias:
            notes.append(f"alias: output '{graph.tensors[s.op.outputs[0]].name}' reuses the input's bytes "
                         f"at arena offset {layout.tensor_offset(s.op.outputs[0])}; no code")
        else:
            if scratch_off is not None:
                uses_arena[0] = True
            body = render(low.params, tensor_expr)
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
                             kind="derived", bytes=int(values.size) * CTYPE_BYTES[d.ctype])
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


def variant_switches(steps: list[Step]) -> list[str]:
    """The switches variants declare beyond the float entries they call: inline C naming float16_t
    needs ARM_NN_ENABLE_F16 for the type. An alias emits no code (a float16 RESHAPE needs nothing)."""
    return sorted({sw for s in steps if not s.lowering.alias for sw in s.variant.switches})


# <PREFIX>_DTYPE_<NAME> codes of the interface descriptors: the dtype table's order, from 1.
DTYPE_CODES = {name: code for code, name in enumerate(DTYPES, start=1)}


def interface_values(interface: Interface) -> list[dict]:
    """The interface as the templates read it: per side, its tensors with their C literals."""
    sides = []
    for side, title, tensors in (("input", "Input", interface.inputs), ("output", "Output", interface.outputs)):
        entries = []
        for t in tensors:
            q = t.quantization
            entries.append(dict(index=t.index, name=t.name, tensor=t.tensor, dtype=t.dtype, shape=t.shape,
                                elements=t.elements, bytes=t.bytes, quantization=q, row_padding=t.row_padding,
                                scale_literals=[codegen.c_float(v) for v in q.scale] if q else [],
                                zero_point_literals=[str(z) if z != -2147483648 else "(-2147483647 - 1)"
                                                     for z in q.zero_point] if q else []))
        sides.append(dict(lower=side, title=title, macro=side.upper(), tensors=entries))
    return sides


def module_files(graph: Graph, steps: list[Step], code: list[OperatorCode], layout: MemoryLayout,
                 table: ConstantTable, options: ConversionOptions, sha256: str, placed=None,
                 interface: Interface | None = None) -> dict[str, str]:
    """Relative path -> text of every header and source of the module; `placed` (placement's
    ConstantPlacement) adds sections, staged copies, extra arenas and the stream pool; `interface`
    (the plan's; derived from the graph when None) the descriptors of the inputs and outputs."""
    prefix = options.prefix
    interface = interface if interface is not None else model_interface(graph)
    ops_out = [dict(position=s.position, op_type=s.op.op_type, id=s.op_id,
                    notes=list(c.notes), body=c.body, uses_arena=c.uses_arena, uses_persistent=c.uses_persistent,
                    events=[])
               for s, c in zip(steps, code)]
    rules = options.placement if options.placement is not None and options.placement.active else None

    def section(memory, kind) -> str:
        name = rules.section(memory, kind) if rules is not None else None
        return f'HELIA_SECTION("{name}") ' if name else ""

    constants = []
    for c in table.constants:
        p = placed.constants[c.symbol] if placed is not None else None
        if p is not None and p.residency == "stream":
            continue  # its bytes are in the stream arena of its memory
        constants.append(dict(symbol=c.symbol, ctype=c.ctype, count=max(int(np.asarray(c.values).size), 1),
                              comment=c.comment, alignment=c.alignment,
                              section=section(p.memory, "constants") if p is not None else "",
                              body=codegen.format_array_body(c.values, c.ctype)))
    extras = placement_extras(graph, steps, layout, table, options, placed, section, ops_out)
    common = dict(
        prefix=prefix, PREFIX=prefix.upper(), version=__version__, sha256=sha256, subgraph=graph.name,
        target=options.target.name, cmsis_required=ns_cmsis_nn_required_str(),
        cmsis_required_packed=ns_cmsis_nn_required_packed(),
        arena_bytes=layout.arena.arena_bytes, arena_alignment=layout.arena.alignment, arena_mode=options.arena,
        inputs=[dict(offset=layout.tensor_offset(t), bytes=graph.tensors[t].nbytes, base=_base(layout, prefix, t))
                for t in graph.inputs],
        outputs=[dict(offset=layout.tensor_offset(t), bytes=graph.tensors[t].nbytes, base=_base(layout, prefix, t))
                 for t in graph.outputs],
        switches=sorted(set(kernel_library.library_switches(symbol for c in code for symbol in c.calls))
                        | set(variant_switches(steps))),
        libm=any(_LIBM_CALL.search(c.body or "") for c in code),
        signal=any(_SIGNAL_CALL.search(c.body or "") for c in code),
        own_kernels=own_kernels_called(code),
        patched=any(c.functions for c in code),  # a patch chain runs (helia_aot.memory.patches)
        # Stateful modules only (a stateless module's files do not change): the persistent arena and
        # what <prefix>_model_reset writes into each of its buffers.
        persistent_bytes=layout.persistent_bytes,
        persistent=[dict(offset=b.offset, bytes=b.size, initial=b.initial, fill=b.fill, tensor=b.tensor,
                         name=graph.tensors[b.tensor].name if b.tensor is not None else b.name,
                         symbol=persistent_init_symbol(prefix, b.tensor) if b.initial == "data" else None)
                    for b in layout.persistent],
        api_version=API_VERSION, interface_sides=interface_values(interface),
        dtypes=[dict(name=name, code=code, ctype=DTYPES[name].ctype) for name, code in DTYPE_CODES.items()],
        **extras,
    )
    return {
        f"include/{prefix}_common.h": codegen.render(
            "common.h.j2", file_role=f"{prefix}_common.h: shared macros and the ns-cmsis-nn version check", **common),
        f"include/{prefix}_model.h": codegen.render(
            "model.h.j2", file_role=f"{prefix}_model.h: the module's C API", **common),
        f"include/{prefix}_constants.h": codegen.render(
            "constants.h.j2", file_role=f"{prefix}_constants.h: declarations of the read-only data",
            constants=constants + extras["stream_sources"], **common),
        f"src/{prefix}_constants.c": codegen.render(
            "constants.c.j2", file_role=f"{prefix}_constants.c: weights, biases and derived tables (read-only)",
            constants=constants + extras["stream_sources"], **common),
        f"src/{prefix}_model.c": codegen.render(
            "model.c.j2", file_role=f"{prefix}_model.c: arena plan and operator schedule", ops=ops_out,
            output_copies=[], band_functions=[f for c in code for f in c.functions], **common),
    }


def _base(layout: MemoryLayout, prefix: str, t: int) -> str | None:
    """The array holding tensor t when it is not in the scratch arena (memory.tensors)."""
    memory = layout.arena_of(t)
    return arena_symbol(prefix, memory) if memory is not None else None


def placement_extras(graph, steps, layout, table, options, placed, section, ops_out) -> dict:
    """Template values of placement: sections of the arenas, extra arenas, staged copies, the stream
    pool and its transfers (added to ops_out[i]["events"]). All empty without placement, so an
    unplaced module's files do not change."""
    prefix, target = options.prefix, options.target
    extras = dict(sections_used=False, arena_section=section(target.scratch_memory, "buffers"),
                  persistent_section=section(layout.persistent_memory, "buffers"),
                  extra_arenas=[dict(symbol=arena_symbol(prefix, m), memory=m, bytes=max(a.arena_bytes, 1),
                                     alignment=a.alignment, section=section(m, "buffers")) for m, a in layout.extra],
                  io_bases=any(layout.arena_of(t) is not None for t in [*graph.inputs, *graph.outputs]),
                  staged=[], stream=None, stream_sources=[])
    if placed is not None:
        by_symbol = {c.symbol: c for c in table.constants}
        for symbol, p in placed.constants.items():
            if p.residency == "pin":
                c = by_symbol[symbol]
                extras["staged"].append(dict(symbol=staged_symbol(symbol), source=symbol, ctype=c.ctype,
                                             count=max(int(np.asarray(c.values).size), 1), alignment=c.alignment,
                                             memory=p.destination, section=section(p.destination, "buffers"),
                                             id=c.id))
        schedule = placed.schedule
        pool = options.placement.stream_pool
        if schedule is not None:
            extras["stream"] = dict(symbol=stream_pool_symbol(prefix), bytes=pool.bytes, alignment=pool.alignment,
                                    memory=pool.memory, engine=pool.engine, section=section(pool.memory, "buffers"),
                                    units=len(schedule.units))
            for memory, size in schedule.sources.items():
                data = bytearray(size)
                for u in schedule.units:
                    if u.source_memory != memory:
                        continue
                    for cand, off in zip(u.tensors, u.offsets):
                        c = by_symbol[cand.symbol]
                        raw = np.asarray(c.values).reshape(-1).astype(CTYPE_NUMPY[c.ctype]).tobytes()
                        assert len(raw) == c.bytes, (c.symbol, len(raw), c.bytes)
                        start = u.source_offset + off
                        data[start:start + c.bytes] = raw
                names = ", ".join(f"{t.id}" for u in schedule.units if u.source_memory == memory for t in u.tensors)
                extras["stream_sources"].append(dict(
                    symbol=stream_source_symbol(prefix, memory), ctype="uint8_t", count=max(size, 1),
                    alignment=max([u.alignment for u in schedule.units] + [codegen.CONSTANT_ALIGNMENT]),
                    section=section(memory, "constants"),
                    comment=f"stream arena of {memory}: the streamed constants, one span per transfer unit "
                            f"(plan: schedule.units): {names}",
                    body=codegen.format_array_body(np.frombuffer(bytes(data), dtype=np.uint8), "uint8_t")))
            with_body = [o["position"] for o in ops_out if o["body"]]
            by_position = {o["position"]: o for o in ops_out}

            def at(position):  # the first operator with code at or after `position`
                return by_position[next(p for p in with_body if p >= position)]

            for u in schedule.units:
                src = f"{stream_source_symbol(prefix, u.source_memory)} + {u.source_offset}"
                dst = f"{stream_pool_symbol(prefix)} + {u.pool_offset}"
                names = codegen.c_comment_text(", ".join(t.id for t in u.tensors))
                if u.engine == "cpu":
                    at(u.issue_position + 1)["events"].append(
                        f"/* stream unit {u.id}: {names} */\n    memcpy({dst}, {src}, {u.bytes});")
                else:
                    at(u.issue_position + 1)["events"].append(
                        f"/* stream unit {u.id}: {names} */\n    "
                        f"{prefix}_stream_issue({u.id}, {dst}, {src}, {u.bytes});")
                    at(u.wait_before)["events"].append(f"{prefix}_stream_wait({u.id});")
    extras["sections_used"] = any(
        [extras["arena_section"], extras["persistent_section"]]
        + [a["section"] for a in extras["extra_arenas"] + extras["staged"] + extras["stream_sources"]]
        + [extras["stream"]["section"] if extras["stream"] else ""]
        + ([section(p.memory, "constants") for p in placed.constants.values()] if placed is not None else []))
    return extras
