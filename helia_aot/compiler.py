# SPDX-License-Identifier: Apache-2.0
"""The conversion pipeline: model bytes -> IR -> lowering -> memory plan -> C module + plan/report."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import codegen, ops
from . import config as config_mod
from . import planner
from .errors import HeliaError, InvalidModelError, InvalidPrefixError, OutputDirError, UnsupportedModelError
from .frontend import litert
from .ir import Graph, Operator
from .ops.base import Lowered, OpContext
from .plan import (SCHEMA_VERSION, Arena, Generator, Kernel, KernelCall, Knob, KnobSource, MemoryPlan,
                   MemorySummary, ModelInfo, Optimization, Plan, PlanBuffer, PlanConstant, PlanOperator, Platform,
                   Report, ReportOperator, Schedule)
from .schema import to_json
from .targets import Target, get_target, load_custom_targets, target_from_dict
from .version import __version__, ns_cmsis_nn_required_packed, ns_cmsis_nn_required_str

_C_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_C_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "_Bool", "_Complex", "_Imaginary",
}


@dataclass
class ConversionResult:
    output_dir: Path
    prefix: str
    plan: dict
    report: dict
    kernel_symbols: list[str]
    files: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def operators(self) -> list[dict]:
        return self.plan["operators"]

    @property
    def arena_bytes(self) -> int:
        return self.plan["memory"]["scratch_arena_bytes"]


@dataclass
class _Step:
    """One operator in execution order with everything decided about it."""

    position: int
    op: Operator
    op_id: str
    id_source: str
    lowering: Lowered
    knob: Knob | None


def check_prefix(prefix) -> str:
    if not isinstance(prefix, str) or not _C_IDENTIFIER.match(prefix) or prefix in _C_KEYWORDS:
        raise InvalidPrefixError(f"module prefix {prefix!r} is not a C identifier",
                                 "Use letters, digits and underscores, starting with a letter or underscore "
                                 "(and not a C keyword)")
    if len(prefix) > 40:
        raise InvalidPrefixError(f"module prefix {prefix!r} is {len(prefix)} characters long",
                                 "Use at most 40 characters so generated symbols stay portable")
    return prefix


def _read_model(model) -> tuple[bytes, str | None, str]:
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model), None, "<bytes>"
    path = Path(model)
    if not path.exists():
        raise InvalidModelError(f"model file {path} does not exist", "Check the path to the .tflite file")
    if path.is_dir():
        raise InvalidModelError(f"model path {path} is a directory", "Pass the .tflite file itself")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidModelError(f"cannot read model file {path}: {exc.strerror}",
                                "Check the file's permissions") from None
    return data, path.name, str(path)


def _resolve_target(cfg, target_arg) -> Target:
    custom: list[Target] = []
    tsec = cfg.values["target"]
    if tsec.get("file"):
        path = Path(tsec["file"])
        if not path.is_absolute() and cfg.base_dir is not None:
            path = cfg.base_dir / path
        custom += load_custom_targets(path)
    if tsec.get("custom"):
        custom.append(target_from_dict(tsec["custom"], "target.custom"))
    name = target_arg if target_arg is not None else tsec["name"]
    target = get_target(name, custom)
    mem = cfg.values["memory"]
    overrides = {}
    for key in ("scratch_memory", "constant_memory"):
        if mem.get(key):
            if target.memory(mem[key]) is None:
                from .errors import InvalidConfigError
                raise InvalidConfigError(
                    f"memory.{key} {mem[key]!r} is not a memory of target {target.name} "
                    f"({[m.name for m in target.memories]})", "Name one of the target's memories")
            overrides[key] = target.memory(mem[key]).name
    if mem.get("arena_alignment"):
        a = mem["arena_alignment"]
        if a <= 0 or a & (a - 1):
            from .errors import InvalidConfigError
            raise InvalidConfigError(f"memory.arena_alignment {a} is not a power of two", "Use 4, 8 or 16")
        overrides["arena_alignment"] = max(a, 4)
    if overrides:
        from dataclasses import replace
        target = replace(target, **overrides)
    return target


def _operator_ids(graph: Graph) -> list[tuple[str, str]]:
    """Stable ids "<subgraph>:<first output name>", #1/#2 on repeats, fallback "<op_type>@<pos>"."""
    names = []
    for op in graph.operators:
        name = graph.tensors[op.outputs[0]].name if op.outputs else ""
        names.append(name)
    counts: dict[str, int] = {}
    for n in names:
        if n:
            counts[n] = counts.get(n, 0) + 1
    seen: dict[str, int] = {}
    result = []
    for pos, (op, n) in enumerate(zip(graph.operators, names)):
        if not n:
            result.append((f"{graph.name}:{op.op_type}@{pos}", "fallback"))
            continue
        if counts[n] > 1:
            seen[n] = seen.get(n, 0) + 1
            result.append((f"{graph.name}:{n}#{seen[n]}", "output_name"))
        else:
            result.append((f"{graph.name}:{n}", "output_name"))
    return result


def _fold_constants(graph: Graph, target: Target, optimization: dict) -> None:
    """Run operators whose inputs are all constant at conversion time (when their module can)."""
    kept = []
    outputs = set(graph.outputs)
    for op in graph.operators:
        lowering = ops.get(op.op_type)
        inputs = [t for t in op.inputs if t >= 0]
        if (lowering is not None and inputs and all(graph.tensors[t].is_constant for t in inputs)
                and not any(t in outputs for t in op.outputs)):
            ctx = OpContext(graph, op, f"{graph.name}:{op.op_type}@{op.index}", target, optimization)
            values = lowering.fold(ctx)
            if values is not None:
                for t, v in zip(op.outputs, values):
                    tensor = graph.tensors[t]
                    tensor.data = np.asarray(v).astype(tensor.dtype if tensor.dtype != "bool" else "uint8")
                continue
        kept.append(op)
    graph.operators = kept


def _check_supported(graph: Graph) -> None:
    supported = ops.supported_operators()
    for pos, op in enumerate(graph.operators):
        if ops.get(op.op_type) is None:
            out = graph.tensors[op.outputs[0]].name if op.outputs else "?"
            raise UnsupportedModelError(
                f"operator {graph.name}:{out} (index {op.index}) is {op.op_type}, which helia_aot does not lower "
                f"(supported: {', '.join(supported)})",
                "Replace the operator in the model, or file an issue asking for it")
    for t in graph.inputs + graph.outputs:
        tensor = graph.tensors[t]
        if tensor.dtype not in ("int8", "int16", "float32", "int32", "uint8"):
            raise UnsupportedModelError(f"model input/output '{tensor.name}' has dtype {tensor.dtype} "
                                        f"(supported: int8, int16, float32, int32, uint8)",
                                        "Export the model with int8 or float32 inputs and outputs")
        if any(d <= 0 for d in tensor.shape):
            raise UnsupportedModelError(f"model input/output '{tensor.name}' has a dynamic or empty shape "
                                        f"{list(tensor.shape)}", "Export the model with fixed shapes (batch 1)")


def _kernel_knob(cfg_opt: dict, lowering: Lowered) -> Knob | None:
    if lowering.candidates is None or len(lowering.candidates) <= 1:
        return None
    requested = cfg_opt["kernel"]
    value = "specialized" if requested == "auto" else requested
    return Knob(value=value, requested=requested,
                resolved_by="auto_table" if requested == "auto" else "explicit",
                approximate=False, source=KnobSource(kind="model" if requested != "auto" else "default"))


class _Compilation:
    def __init__(self, data: bytes, file_name: str | None, source: str, cfg, prefix: str, target: Target):
        self.data = data
        self.file_name = file_name
        self.source = source
        self.cfg = cfg
        self.prefix = prefix
        self.target = target
        self.sha256 = hashlib.sha256(data).hexdigest()
        self.optimization = dict(cfg.values["optimization"])

    def run(self):
        graph = litert.load(self.data, self.source, self.cfg.values["model"]["subgraph"])
        self.graph = graph
        if not graph.operators:
            raise InvalidModelError(f"model {self.source} subgraph '{graph.name}' has no operators",
                                    "Pass a model with at least one operator")
        _check_supported(graph)
        _fold_constants(graph, self.target, self.optimization)
        ids = _operator_ids(graph)
        steps: list[_Step] = []
        for pos, (op, (op_id, id_source)) in enumerate(zip(graph.operators, ids)):
            module = ops.get(op.op_type)
            ctx = OpContext(graph, op, op_id, self.target, self.optimization)
            module.validate(ctx)
            lowering = module.lower(ctx)
            steps.append(_Step(pos, op, op_id, id_source, lowering, _kernel_knob(self.optimization, lowering)))
        self.steps = steps
        self._plan_memory()
        return self

    # -- memory ---------------------------------------------------------------------------
    def _plan_memory(self) -> None:
        graph, steps = self.graph, self.steps
        root = {}

        def find(t: int) -> int:
            while t in root:
                t = root[t]
            return t

        for s in steps:
            if s.lowering.alias:
                root[s.op.outputs[0]] = s.op.inputs[0]
        n = len(steps)
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        members: dict[int, list[int]] = {}

        def touch(t: int, pos: int) -> None:
            r = find(t)
            first[r] = min(first.get(r, pos), pos)
            last[r] = max(last.get(r, pos), pos)
            if t not in members.setdefault(r, []):
                members[r].append(t)

        for t in graph.inputs:
            touch(t, 0)
        for s in steps:
            for t in s.op.inputs:
                if t >= 0 and not graph.tensors[t].is_constant:
                    touch(t, s.position)
            for t in s.op.outputs:
                touch(t, s.position)
        for t in graph.outputs:
            touch(t, n - 1)
        buffers = []
        for r in sorted(first):
            tensor = graph.tensors[r]
            if tensor.is_constant:
                continue
            buffers.append(planner.Buffer(name=f"t{r}", size=tensor.nbytes, first=first[r], last=last[r],
                                          kind="tensor", tensor=r))
        for s in steps:
            if s.lowering.scratch_bytes > 0:
                buffers.append(planner.Buffer(name=f"scratch{s.position}", size=s.lowering.scratch_bytes,
                                              first=s.position, last=s.position, kind="scratch",
                                              op_position=s.position))
        self.root = find
        self.members = members
        self.arena = planner.plan(buffers, n, self.target.arena_alignment)

    def tensor_offset(self, t: int) -> int:
        return self.arena.offset_of_tensor(self.root(t))

    # -- code generation ------------------------------------------------------------------
    def generate(self, out: Path) -> list[str]:
        prefix, PREFIX = self.prefix, self.prefix.upper()
        graph = self.graph
        constants: list[dict] = []
        constant_symbols: dict[int, dict] = {}
        self.op_constant_bytes: dict[int, int] = {}

        def tensor_constant(t: int, step: _Step) -> dict:
            if t not in constant_symbols:
                tensor = graph.tensors[t]
                entry = dict(
                    symbol=f"{prefix}_t{t}", ctype=codegen.c_type(tensor.dtype), count=max(tensor.num_elements, 1),
                    values=tensor.data, comment=f"tensor {t} '{tensor.name}' {list(tensor.shape)} {tensor.dtype}",
                    alignment=codegen.CONSTANT_ALIGNMENT, id=tensor.name, kind="tensor", bytes=tensor.nbytes,
                )
                constant_symbols[t] = entry
                constants.append(entry)
            return constant_symbols[t]

        ops_out = []
        for s in self.steps:
            low = s.lowering
            derived = {}
            for c in low.constants:
                values = np.asarray(c.values)
                entry = dict(symbol=f"{prefix}_op{s.position}_{c.suffix}", ctype=c.ctype,
                             count=max(values.size, 1), values=values,
                             comment=f"[{s.position}] {s.op_id}: {c.comment}",
                             alignment=codegen.CONSTANT_ALIGNMENT, id=f"{s.op_id}/{c.suffix}", kind="derived",
                             bytes=int(values.size) * _CTYPE_BYTES[c.ctype])
                derived[c.suffix] = entry
                constants.append(entry)
            used_bytes = sum(e["bytes"] for e in derived.values())
            uses_arena = [False]

            def tensor_expr(t, _s=s, _flag=uses_arena):
                if t is None or t < 0:
                    return "NULL"
                tensor = graph.tensors[t]
                if tensor.is_constant:
                    return tensor_constant(t, _s)["symbol"]
                _flag[0] = True
                return f"({codegen.c_type(tensor.dtype)} *)(arena + {self.tensor_offset(t)})"

            body = None
            notes = []
            if low.alias:
                notes.append(f"alias: output '{graph.tensors[s.op.outputs[0]].name}' reuses the input's bytes "
                             f"at arena offset {self.tensor_offset(s.op.outputs[0])}; no code")
            elif low.template is not None:
                scratch_off = self.arena.scratch_offset(s.position)
                if scratch_off is not None:
                    uses_arena[0] = True
                params = dict(
                    p=low.params, entry=low.entry,
                    tensor=tensor_expr,
                    const=lambda suffix, _d=derived: _d[suffix]["symbol"],
                    const_ptr=lambda suffix, _d=derived: (f"HELIA_UNCONST(void *, {_d[suffix]['symbol']})"
                                                          if suffix in _d else "NULL"),
                    const_bytes=lambda suffix, _d=derived: (f"(int32_t)sizeof({_d[suffix]['symbol']})"
                                                            if suffix in _d else "0"),
                    scratch_ptr=f"arena + {scratch_off}" if scratch_off is not None else "NULL",
                    scratch_bytes=low.scratch_bytes,
                    prefix=prefix,
                )
                body = codegen.render(low.template, **params).rstrip("\n")
                notes.append(f"entry: {low.entry or 'inline C'}; scratch {low.scratch_bytes} B"
                             + (f" at arena offset {scratch_off}" if scratch_off is not None else ""))
            for t in s.op.inputs:
                if t >= 0 and graph.tensors[t].is_constant and t in constant_symbols:
                    used_bytes += constant_symbols[t]["bytes"]
            self.op_constant_bytes[s.position] = used_bytes
            ops_out.append(dict(position=s.position, op_type=s.op.op_type, id=s.op_id.replace("*/", "* /"),
                                notes=notes, body=body, uses_arena=uses_arena[0]))
        self.constants = constants

        for c in constants:
            c["body"] = codegen.format_array_body(c["values"], c["ctype"])

        common = dict(
            prefix=prefix, PREFIX=PREFIX, version=__version__, sha256=self.sha256, subgraph=graph.name,
            target=self.target.name, cmsis_required=ns_cmsis_nn_required_str(),
            cmsis_required_packed=ns_cmsis_nn_required_packed(),
            arena_bytes=self.arena.arena_bytes, arena_alignment=self.arena.alignment,
            arena_mode=self.cfg.values["module"]["arena"],
            inputs=[dict(offset=self.tensor_offset(t), bytes=graph.tensors[t].nbytes) for t in graph.inputs],
            outputs=[dict(offset=self.tensor_offset(t), bytes=graph.tensors[t].nbytes) for t in graph.outputs],
        )
        files = {
            f"include/{prefix}_common.h": codegen.render("common.h.j2", file_role=f"{prefix}_common.h: "
                                                         "shared macros and the ns-cmsis-nn version check",
                                                         **common),
            f"include/{prefix}_model.h": codegen.render("model.h.j2", file_role=f"{prefix}_model.h: the "
                                                        "module's C API", **common),
            f"include/{prefix}_constants.h": codegen.render("constants.h.j2", file_role=f"{prefix}_constants.h: "
                                                            "declarations of the read-only data",
                                                            constants=constants, **common),
            f"src/{prefix}_constants.c": codegen.render("constants.c.j2", file_role=f"{prefix}_constants.c: "
                                                        "weights, biases and derived tables (read-only)",
                                                        constants=constants, **common),
            f"src/{prefix}_model.c": codegen.render("model.c.j2", file_role=f"{prefix}_model.c: arena plan "
                                                    "and operator schedule", ops=ops_out, output_copies=[],
                                                    **common),
        }
        written = []
        for rel, text in files.items():
            path = out / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            written.append(rel)
        return written

    # -- plan and report ------------------------------------------------------------------
    def build_plan(self) -> Plan:
        graph, target, cfg = self.graph, self.target, self.cfg
        gen = Generator(helia_aot=__version__, cmsis_nn_required=ns_cmsis_nn_required_str())
        model = ModelInfo(file=self.file_name, sha256=self.sha256, subgraph=graph.name,
                          subgraph_index=graph.subgraph_index)
        platform = Platform(name=target.name, cpu=target.cpu, capabilities=list(target.capabilities),
                            supports_fp16=target.supports_fp16, kernel_build=target.kernel_build)
        opt = self.optimization
        operators = []
        for s in self.steps:
            low = s.lowering
            operators.append(PlanOperator(
                id=s.op_id, id_source=s.id_source, index=s.position, node_id=f"n{s.op.index}",
                op_type=s.op.op_type, source_index=s.op.index,
                inputs=[graph.tensors[t].name if t >= 0 else "" for t in s.op.inputs],
                outputs=[graph.tensors[t].name for t in s.op.outputs],
                alias_of=graph.tensors[s.op.inputs[0]].name if low.alias else None,
                kernel=Kernel(entry=low.entry, provider="helia_aot.ops/v1", candidates=low.candidates,
                              requantization=low.requantization,
                              local_scratch_bytes=None if low.alias else low.scratch_bytes,
                              weight_sums=low.weight_sums),
                knobs={"kernel": s.knob} if s.knob else {},
                fixed={k: str(v) for k, v in sorted(low.fixed.items())},
            ))
        tensors = [PlanConstant(id=c["id"], storage_id=c["id"], symbol=c["symbol"], kind=c["kind"], requested=None,
                                residency="direct", memory=target.constant_memory, destination_memory=None,
                                bytes=c["bytes"], alignment=c["alignment"], unit=None, pool_offset=None)
                   for c in self.constants]
        buffers = []
        for b in sorted(self.arena.buffers, key=lambda b: (b.offset, b.first, b.name)):
            names = ([graph.tensors[t].name for t in self.members.get(b.tensor, [b.tensor])]
                     if b.kind == "tensor" else [])
            buffers.append(PlanBuffer(name=b.name, kind=b.kind, offset=b.offset, bytes=b.size, first=b.first,
                                      last=b.last, tensors=names))
        memory = MemoryPlan(scratch_memory=target.scratch_memory, constant_memory=target.constant_memory,
                            arena=cfg.values["module"]["arena"], arena_alignment=self.arena.alignment,
                            scratch_arena_bytes=self.arena.arena_bytes, lower_bound_bytes=self.arena.lower_bound,
                            strategy=self.arena.strategy, buffers=buffers)
        return Plan(schema_version=SCHEMA_VERSION, generator=gen, model=model, module_prefix=self.prefix,
                    platform=platform,
                    optimization=Optimization(goal=opt["goal"], allow_approximate=opt["allow_approximate"],
                                              kernel=opt["kernel"], knobs={}),
                    operators=operators, tensors=tensors, memory=memory,
                    schedule=Schedule(source="none", units=[]))

    def build_report(self, plan: Plan) -> Report:
        calls: dict[str, list[str]] = {}
        unrecorded = []
        rep_ops = []
        for s in self.steps:
            low = s.lowering
            for sym in low.calls:
                calls.setdefault(sym, []).append(s.op_id)
            if not low.alias and low.entry is None and not low.calls:
                unrecorded.append(s.op_id)
            rep_ops.append(ReportOperator(id=s.op_id, index=s.position, op_type=s.op.op_type, entry=low.entry,
                                          macs=int(low.macs), local_scratch_bytes=int(low.scratch_bytes),
                                          constant_bytes=int(self.op_constant_bytes.get(s.position, 0))))
        const_bytes = sum(c["bytes"] for c in self.constants)
        arena, bound = self.arena.arena_bytes, self.arena.lower_bound
        warnings = []
        mem = self.target.memory(self.target.scratch_memory)
        if mem is not None and arena > mem.size:
            warnings.append(f"scratch arena {arena} B exceeds {mem.name} ({mem.size} B)")
        cmem = self.target.memory(self.target.constant_memory)
        if cmem is not None and const_bytes > cmem.size:
            warnings.append(f"constants {const_bytes} B exceed {cmem.name} ({cmem.size} B)")
        peak = self.steps[self.arena.peak_step].op_id if self.steps else None
        return Report(
            schema_version=SCHEMA_VERSION, generator=plan.generator, model=plan.model,
            module_prefix=self.prefix, platform=plan.platform, operators=rep_ops,
            total_macs=sum(o.macs for o in rep_ops),
            kernel_calls=[KernelCall(symbol=k, operator_ids=v) for k, v in sorted(calls.items())],
            unrecorded_operator_ids=unrecorded,
            arenas=[Arena(memory=self.target.scratch_memory, kind="scratch", bytes=arena),
                    Arena(memory=self.target.constant_memory, kind="constant", bytes=const_bytes),
                    Arena(memory=self.target.scratch_memory, kind="persistent", bytes=0)],
            memory=MemorySummary(scratch_arena_bytes=arena, lower_bound_bytes=bound,
                                 ratio=round(arena / bound, 4) if bound else 1.0, peak_operator=peak,
                                 constant_bytes=const_bytes, io_in_arena=True),
            warnings=warnings,
        )


_CTYPE_BYTES = {"int8_t": 1, "uint8_t": 1, "uint32_t": 4, "int16_t": 2, "int32_t": 4, "int64_t": 8, "float": 4}


def _dump_json(obj) -> str:
    return json.dumps(to_json(obj), indent=2, ensure_ascii=False) + "\n"


def _replace_dir(tmp: Path, final: Path) -> None:
    """Move the finished temp dir into place; the old OUTDIR (if any) is swapped out, never mixed."""
    if final.exists() and not final.is_dir():
        raise OutputDirError(f"output path {final} exists and is not a directory", "Choose another -o path")
    backup = None
    if final.exists():
        backup = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-", dir=final.parent))
        backup.rmdir()
        os.rename(final, backup)
    try:
        os.rename(tmp, final)
    except OSError:
        if backup is not None:
            os.rename(backup, final)
        raise
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)


def convert(model, output_dir, *, prefix: str = "model", target: str = "host", config=None,
            with_test_data: bool = False, num_test_samples: int | None = None,
            seed: int | None = None) -> ConversionResult:
    """Convert a LiteRT model (path or bytes) into a C module under output_dir.

    ``prefix`` and ``target`` left at their defaults take the config file's module.prefix and
    target.name when it sets them; given explicitly, they override it.
    """
    start = time.perf_counter()
    cfg = config_mod.load(config)
    if prefix != "model" or cfg.values["module"]["prefix"] is None:
        cfg.values["module"]["prefix"] = prefix
    prefix = check_prefix(cfg.values["module"]["prefix"])
    target_obj = _resolve_target(cfg, target if target != "host" else None)
    if num_test_samples is not None:
        cfg.set("test", "num_samples", int(num_test_samples))
    if seed is not None:
        cfg.set("test", "seed", int(seed))
    data, file_name, source = _read_model(model)

    comp = _Compilation(data, file_name, source, cfg, prefix, target_obj).run()
    out = Path(output_dir).resolve()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    except OSError as exc:
        raise OutputDirError(f"cannot create output directory next to {out}: {exc.strerror}",
                             "Check the -o path and its permissions") from None
    try:
        files = comp.generate(tmp)
        plan = comp.build_plan()
        report = comp.build_report(plan)
        (tmp / f"{prefix}_plan.json").write_text(_dump_json(plan))
        (tmp / f"{prefix}_report.json").write_text(_dump_json(report))
        files += [f"{prefix}_plan.json", f"{prefix}_report.json"]
        if with_test_data:
            from . import golden
            files += golden.write_test_data(tmp, data, comp.graph, prefix, cfg.values["test"])
        os.chmod(tmp, 0o755)
        _replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    plan_d, report_d = to_json(plan), to_json(report)
    symbols = sorted({c["symbol"] for c in report_d["kernel_calls"]})
    return ConversionResult(output_dir=out, prefix=prefix, plan=plan_d, report=report_d, kernel_symbols=symbols,
                            files=sorted(files), seconds=time.perf_counter() - start)
