# SPDX-License-Identifier: Apache-2.0
"""C of a patch chain (helia_aot.memory.patches): each step's kernel call on a band, one function per
distinct band geometry rendered from the step's own template with the band's dimensions and padding,
and the chain's last step running a table of (function, input and output offsets) patch by patch; in
cache mode the table also moves each patch's kept rows to the top of their band buffer (memmove)."""

from __future__ import annotations

from helia_aot.memory.arena_planner import MemoryLayout
from helia_aot.memory.patches import Patching, band_params

NAMES = ("in0", "in1")


def _row_bytes(graph, t: int) -> int:
    tensor = graph.tensors[t]
    return tensor.nbytes // tensor.shape[1]


def step_code(graph, layout: MemoryLayout, patching: Patching, prefix: str, position: int, params: dict,
              render) -> tuple[tuple[str, ...], str | None, tuple[str, ...]]:
    """(band functions, body, notes) of the chain's step at `position`: the body runs the whole chain
    for its last step and is None for the others. `render(params, names)` renders the step's
    template with tensor index -> C expression overrides."""
    chain = patching.chain
    index = chain.positions.index(position)
    shape = chain.shapes[index]
    keys: dict[tuple, int] = {}
    functions = []
    for p_index, calls in enumerate(chain.calls):
        if not calls[index].called:
            continue
        key = _geometry_key(chain, index, p_index)
        if key in keys:
            continue
        keys[key] = len(keys)
        p = band_params(graph, shape, params, calls[index])
        names = {w.tensor: NAMES[i] for i, w in enumerate(shape.inputs)} | {shape.output: "out"}
        body = render(p, names)
        functions.append(
            f"/* [{position}] on a band: output rows {calls[index].out_rows[1] - calls[index].out_rows[0]}, "
            f"input rows {', '.join(str(b - a) for a, b in calls[index].in_rows)} */\n"
            f"static arm_cmsis_nn_status {_function(prefix, position, keys[key])}(uint8_t *arena, int8_t *in0, "
            f"int8_t *in1, int8_t *out)\n{{\n    (void)arena;\n    (void)in0;\n    (void)in1;\n    (void)out;\n"
            f"{body}\n}}")
    notes = (f"patch chain [{chain.first}..{chain.last}]: runs on {chain.patches} bands of output rows "
             f"({len(functions)} band geometr{'y' if len(functions) == 1 else 'ies'}), halo rows "
             + ("cached" if chain.halo == "cache" else "recomputed"),)
    body = _chain_body(graph, layout, patching, prefix) if position == chain.last else None
    return tuple(functions), body, notes


def _function(prefix: str, position: int, k: int) -> str:
    return f"{prefix}_op_{position}_band{k}"


def _offsets(graph, layout: MemoryLayout, patching: Patching, p: int, i: int) -> tuple[int, int, int]:
    """Arena offsets of in0, in1 (-1: none) and out for step i on patch p."""
    chain = patching.chain
    shape, call = chain.shapes[i], chain.calls[p][i]

    def at(t: int, row: int) -> int:
        if t in chain.band_of:
            row -= chain.band_of[t][1][p][0]
        return layout.tensor_offset(t) + row * _row_bytes(graph, t)

    ins = [at(w.tensor, rows[0]) for w, rows in zip(shape.inputs, call.in_rows)]
    ins += [-1] * (2 - len(ins))
    return ins[0], ins[1], at(shape.output, call.out_rows[0])


def _chain_body(graph, layout: MemoryLayout, patching: Patching, prefix: str) -> str:
    """The loop over patches: per patch, each step's band function on its rows."""
    chain = patching.chain
    rows = []
    count = 0
    geometry: list[dict] = [{} for _ in chain.shapes]
    for p, calls in enumerate(chain.calls):
        rows.append(f"        /* patch {p}: output rows {calls[-1].out_rows[0]}..{calls[-1].out_rows[1] - 1} */")
        for m in chain.moves[p] if chain.moves else ():
            # The rows kept from the previous patch go to the top of the band, the producer writes after them.
            row, base = _row_bytes(graph, m.tensor), layout.tensor_offset(m.tensor)
            rows.append(f"        {{ NULL, {base + m.start * row}, {m.rows * row}, {base} }}, "
                        f"/* tensor {m.tensor}: keep {m.rows} row{'s' if m.rows > 1 else ''} */")
            count += 1
        for i, shape in enumerate(chain.shapes):
            if not calls[i].called:
                continue  # cache: no new rows on this patch
            key = _geometry_key(chain, i, p)
            k = geometry[i].setdefault(key, len(geometry[i]))
            in0, in1, out = _offsets(graph, layout, patching, p, i)
            rows.append(f"        {{ {_function(prefix, shape.position, k)}, {in0}, {in1}, {out} }},")
            count += 1
    moves = any(chain.moves)
    return "\n".join([
        "    typedef arm_cmsis_nn_status (*band_function)(uint8_t *, int8_t *, int8_t *, int8_t *);",
        "    static const struct",
        "    {",
        "        band_function run;" + (" /* NULL: memmove(arena + out, arena + in0, in1 bytes) */" if moves else ""),
        "        int32_t in0, in1, out; /* arena offsets; -1: no second input */",
        f"    }} bands[{count}] = {{",
        *rows,
        "    };",
        f"    for (int32_t i = 0; i < {count}; i++)",
        "    {",
        *([
            "        if (bands[i].run == NULL)",
            "        {",
            "            memmove(arena + bands[i].out, arena + bands[i].in0, (size_t)bands[i].in1);",
            "            continue;",
            "        }",
        ] if moves else []),
        "        const arm_cmsis_nn_status status = bands[i].run(arena, (int8_t *)(arena + bands[i].in0),",
        "            bands[i].in1 < 0 ? NULL : (int8_t *)(arena + bands[i].in1), (int8_t *)(arena + bands[i].out));",
        "        if (status != ARM_CMSIS_NN_SUCCESS)",
        "        {",
        "            return status;",
        "        }",
        "    }",
        "    return ARM_CMSIS_NN_SUCCESS;",
    ])


def _geometry_key(chain, i: int, p: int) -> tuple:
    """What decides a band function: the rows in and out and where the band sits against the padding."""
    shape, call = chain.shapes[i], chain.calls[p][i]
    o0, o1 = call.out_rows
    tops = tuple((b - a, a - (o0 * w.stride - w.pad)) for w, (a, b) in zip(shape.inputs, call.in_rows))
    return (o1 - o0, tops)
