# SPDX-License-Identifier: Apache-2.0
"""Resource variables stage: VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE and CALL_ONCE turned into
variable tensors, before the verifier sees the graph.

LiteRT names a resource variable by (container, shared_name): every VAR_HANDLE with that pair, in
any subgraph, hands out the same variable, and CALL_ONCE runs its initialisation subgraph on the
first invoke only. Here each variable becomes one variable tensor of the converted subgraph (so the
persistent arena holds it), READ_VARIABLE and ASSIGN_VARIABLE read and write that tensor instead of
a handle, and VAR_HANDLE and CALL_ONCE disappear: the initialisation is evaluated now, when every value it
assigns is a constant or computed from constants by operators the compiler folds (the main graph's
constant folding, lowering.lower._fold_constants), and its values become the tensor's initial value (what
<prefix>_model_reset restores). A READ_VARIABLE in an initialisation reads what it assigned before, or the
variable's reset value, as TFLM does. Anything else in an initialisation subgraph is refused.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

from helia_aot import ops
from helia_aot.config import options as config_options
from helia_aot.errors import InvalidModelError, UnsupportedModelError
from helia_aot.frontend import litert
from helia_aot.ir.graph import Graph, Operator, Tensor
from helia_aot.lowering import lower, verifier
from helia_aot.ops.base import OpLowering
from helia_aot.ops.call_once import CONSTANT_INIT
from helia_aot.ops.read_variable import ONE_FORM, ONE_SIZE, same_bytes

RESOURCE_OPS = ("VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE", "CALL_ONCE")
_HINT = ("Export the model so the variable's initialisation assigns constants, or values computed from constants "
         "only, or drop the variable")
# Operators of an initialisation subgraph that stay after folding: they name and set the variables.
_INIT_OPS = ("VAR_HANDLE", "ASSIGN_VARIABLE")


def _tensor(graph: Graph, t: int) -> Tensor | None:
    return graph.tensors[t] if 0 <= t < len(graph.tensors) else None


def _key(op: Operator) -> tuple[str, str]:
    return (str(op.options.get("container") or ""), str(op.options.get("shared_name") or ""))


def _handles(graph: Graph) -> dict[int, tuple[str, str]]:
    """Resource tensor -> the variable its VAR_HANDLE names."""
    found = {}
    for op in graph.operators:
        if op.op_type == "VAR_HANDLE" and len(op.outputs) == 1 and _tensor(graph, op.outputs[0]) is not None:
            found[op.outputs[0]] = _key(op)
    return found


@functools.cache
def _fold_options() -> config_options.ConversionOptions:
    """Options for folding: no fold reads the conversion's target, kernel library or knobs, so the defaults
    serve (resolve() is not given the conversion's)."""
    return config_options.resolve()


class _Resolver:
    def __init__(self, graph: Graph, model: litert.LiteRTModel):
        self.graph = graph
        self.model = model  # the parsed file: an initialisation subgraph is decoded from it once
        self.source = model.source
        self.initial: dict[tuple[str, str], Tensor] = {}  # variable -> the constant tensor assigned
        self.evaluated: set[int] = set()  # initialisation subgraphs already run (a CALL_ONCE may repeat one)

    def where(self, graph: Graph, op: Operator) -> str:
        return f"model {self.source}: operator {op.index} ({op.op_type}) of subgraph '{graph.name}'"

    def refuse(self, call: Operator, init: Graph, op: Operator, what: str) -> UnsupportedModelError:
        return UnsupportedModelError(
            f"{self.where(self.graph, call)}: its initialisation subgraph '{init.name}' {what} (operator {op.index}, "
            f"{op.op_type}); helia_aot evaluates an initialisation at conversion only when every value it assigns is "
            f"a constant or computed from constants by operators it folds ({CONSTANT_INIT.source.tag})", _HINT)

    def read_values(self, init: Graph) -> Graph:
        """The initialisation subgraph with each READ_VARIABLE replaced by the value it reads: what an earlier
        ASSIGN_VARIABLE of the subgraph wrote, else the variable's state before it runs (an earlier
        initialisation's value, else the reset value). TFLM reads a variable nothing assigned yet as its
        reset buffer (the int8 zero point, else zero bytes; measured); LiteRT refuses the read."""
        handles = _handles(init)
        tensors, operators = list(init.tensors), []
        assigned: dict[tuple[str, str], int] = {}
        substitute: dict[int, int] = {}
        for op in init.operators:
            op = replace(op, inputs=[substitute.get(t, t) for t in op.inputs])
            handle = op.inputs[0] if op.inputs else -1
            if op.op_type == "ASSIGN_VARIABLE" and handle in handles and len(op.inputs) == 2:
                assigned[handles[handle]] = op.inputs[1]
            if op.op_type != "READ_VARIABLE" or handle not in handles or len(op.outputs) != 1:
                operators.append(op)
                continue
            out = _tensor(init, op.outputs[0])
            if out is None:
                raise InvalidModelError(f"{self.where(init, op)}: its output is not a tensor of the subgraph",
                                        "Re-export the model, or check that the file is not damaged")
            key = handles[handle]
            source = _tensor(init, assigned[key]) if key in assigned else self.initial.get(key)
            if source is not None and not same_bytes(source, out):
                raise UnsupportedModelError(
                    f"{self.where(init, op)}: reads resource variable '{key[1]}' as {out.dtype} {list(out.shape)} "
                    f"after it was given {source.dtype} {list(source.shape)} ('{source.name}') "
                    f"({(ONE_SIZE if source.dtype == out.dtype else ONE_FORM).source.tag})",
                    "Export the model with one dtype and size per variable")
            if key in assigned and not source.is_constant:
                if tuple(source.shape) != tuple(out.shape):
                    raise self.refuse_read(init, op, key)
                substitute[op.outputs[0]] = assigned[key]
                continue
            if source is not None:
                value = np.asarray(source.data).reshape(out.shape)
            else:
                value = np.full(out.shape, out.reset_code, dtype=np.dtype(out.dtype))
            tensors[op.outputs[0]] = replace(out, data=value)
        return replace(init, tensors=tensors, operators=operators)

    def refuse_read(self, init: Graph, op: Operator, key: tuple[str, str]) -> UnsupportedModelError:
        return UnsupportedModelError(
            f"{self.where(init, op)}: reads resource variable '{key[1]}' in another shape than the value its "
            f"initialisation computes for it; helia_aot evaluates an initialisation at conversion "
            f"({CONSTANT_INIT.source.tag})", _HINT)

    def fold_init(self, call: Operator, init: Graph) -> Graph:
        """The initialisation subgraph with every value it computes folded into a constant, by the same
        evaluation the main graph's constants get; refused at the first operator that cannot be."""
        init = self.read_values(init)
        handles = set(_handles(init))
        inputs = set(init.inputs)
        work = [op for op in init.operators if op.op_type not in _INIT_OPS]
        for op in work:
            module = ops.get(op.op_type)
            read = [t for t in op.inputs if t in handles or t in inputs]
            if module is None:
                raise self.refuse(call, init, op, "runs an operator helia_aot does not lower")
            if read:
                name = init.tensors[read[0]].name
                raise self.refuse(call, init, op, f"reads '{name}', " + (
                    "a resource variable" if read[0] in handles else "a subgraph input") + ", known only at run time")
            if type(module).fold is OpLowering.fold:
                raise self.refuse(call, init, op, "runs an operator helia_aot does not evaluate at conversion")
        if not work:
            return init
        # Verified as the main graph is before its folding (a damaged initialisation fails as clearly), with
        # what it computes as outputs since the verifier wants some; the folding itself sees none (it keeps
        # an operator writing a graph output).
        computed = list(dict.fromkeys(t for op in work for t in op.outputs))
        checked, _ = verifier.verify(replace(init, operators=work, outputs=computed), self.source)
        folded = lower._fold_constants(replace(checked, outputs=[]), _fold_options())
        if folded.operators:
            op = folded.operators[0]  # the first left: a later one reads what it did not compute
            if not all(t < 0 or folded.tensors[t].is_constant for t in op.inputs):
                raise self.refuse(call, init, op, "reads a value not computed at conversion")
            # Modules fold only the forms they evaluate exactly as LiteRT does (ADD: not float16).
            out = folded.tensors[op.outputs[0]] if op.outputs else None
            raise self.refuse(call, init, op, "runs an operator helia_aot does not fold"
                              + (f" for {out.dtype}" if out is not None else ""))
        return replace(init, tensors=folded.tensors, operators=[op for op in init.operators if op.op_type in _INIT_OPS])

    def run_init(self, call: Operator) -> None:
        """Evaluate CALL_ONCE's initialisation subgraph: VAR_HANDLE, ASSIGN_VARIABLE of constants and of
        values folded from constants."""
        index = call.options.get("init_subgraph_index")
        g = self.graph
        if not isinstance(index, int) or not 0 <= index < g.subgraph_count or index == g.subgraph_index:
            raise InvalidModelError(f"{self.where(g, call)}: option init_subgraph_index = {index} does not name "
                                    f"another of the model's {g.subgraph_count} subgraphs",
                                    "Re-export the model, or check that the file is not damaged")
        if index in self.evaluated:
            return  # the same constants again: running it once more changes nothing
        self.evaluated.add(index)
        init = self.model.graph(index)
        handles = _handles(init)
        init = self.fold_init(call, init)
        for op in init.operators:
            if op.op_type == "VAR_HANDLE":
                continue
            value = _tensor(init, op.inputs[1]) if len(op.inputs) == 2 else None
            if value is None or op.inputs[0] not in handles or not value.is_constant:
                raise self.refuse(call, init, op, "assigns a value that is not a constant")
            self.initial[handles[op.inputs[0]]] = value

    def resolve(self) -> Graph:
        g = self.graph
        for op in g.operators:
            if op.op_type == "CALL_ONCE":
                self.run_init(op)
        handles = _handles(g)
        # Every tensor that gives a variable its type: the values assigned to it and read from it.
        seen: dict[tuple[str, str], list[Tensor]] = {k: [t] for k, t in self.initial.items()}
        for op in g.operators:
            slot = {"READ_VARIABLE": (0, op.outputs[:1]), "ASSIGN_VARIABLE": (0, op.inputs[1:2])}.get(op.op_type)
            if slot is None:
                continue
            handle = op.inputs[0] if op.inputs else -1
            if handle not in handles:
                raise InvalidModelError(f"{self.where(g, op)}: input 0 is not a VAR_HANDLE's output",
                                        "Re-export the model, or check that the file is not damaged")
            typed = seen.setdefault(handles[handle], [])
            typed += [g.tensors[t] for t in slot[1] if _tensor(g, t) is not None]
        tensors = list(g.tensors)
        variable_of: dict[tuple[str, str], int] = {}
        for key in seen:  # initialised variables first, then in order of use
            if not seen[key]:
                raise InvalidModelError(f"model {self.source}: resource variable '{key[1]}' is neither assigned "
                                        "nor read through a tensor of the subgraph",
                                        "Re-export the model, or check that the file is not damaged")
            first = seen[key][0]
            for other in seen[key][1:]:
                if not same_bytes(other, first):
                    raise UnsupportedModelError(
                        f"model {self.source}: resource variable '{key[1]}' is used as {first.dtype} "
                        f"{list(first.shape)} ('{first.name}') and as {other.dtype} {list(other.shape)} "
                        f"('{other.name}'); its bytes are copied as they are, so every use needs one dtype and "
                        f"element count ({(ONE_FORM if other.dtype != first.dtype else ONE_SIZE).source.tag})",
                        "Export the model with one dtype and size per variable")
            initial = self.initial.get(key)
            tensors.append(Tensor(len(tensors), key[1] or f"resource_variable_{len(variable_of)}", tuple(first.shape),
                                  first.dtype, first.quant, is_variable=True,
                                  initial=None if initial is None else np.asarray(initial.data)))
            variable_of[key] = len(tensors) - 1
        operators = []
        for op in g.operators:
            if op.op_type in ("VAR_HANDLE", "CALL_ONCE"):
                continue
            if op.op_type in ("READ_VARIABLE", "ASSIGN_VARIABLE"):
                op = replace(op, inputs=[variable_of[handles[op.inputs[0]]]] + op.inputs[1:])
            operators.append(op)
        return replace(g, tensors=tensors, operators=operators)


def resolve(graph: Graph, model: litert.LiteRTModel | bytes, source: str = "<bytes>") -> Graph:
    """The graph with its resource variables as variable tensors (the graph itself when it has none).
    `model` is the file `graph` came from, parsed (litert.parse) or as bytes (parsed here)."""
    if not any(op.op_type in RESOURCE_OPS for op in graph.operators):
        return graph
    if not isinstance(model, litert.LiteRTModel):
        model = litert.parse(model, source)
    return _Resolver(graph, model).resolve()
