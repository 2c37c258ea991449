# SPDX-License-Identifier: Apache-2.0
"""<prefix>_report.html: the plan and report as one self-contained page, for a firmware engineer.

In reading order: the model's inputs and outputs (plan["interface"]), the totals against the target's
memories, an SVG picture of the scratch arena (address against schedule position, one rectangle per
planned buffer), the stream pool if any, the layer table, what to compile and link (derived from the
plan's kernel library, target and calls) and the kernel choice's trade. It fits 1,280 px: long fused
names show their first part, the whole id on hover. The page loads nothing and runs nothing (inline
CSS and SVG; the layer table sorts and filters by CSS alone), and its bytes depend only on the plan
and report. Every string from the model reaches it through Jinja's autoescaping, and none reaches its
style sheet: a model is untrusted input.
"""

from __future__ import annotations

import json
from pathlib import Path

import jinja2

from helia_aot import ops, user_files
from helia_aot.config.targets import HOST_CPU, builtin_targets
from helia_aot.errors import OutputDirError
from helia_aot.library import own_kernels
from helia_aot.library.kernel_library import library_switches

# helia-aot's kernels of TFLM's Signal operators (kernels/portable, helia_signal.h).
SIGNAL_PREFIX = "helia_signal_"

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(Path(__file__).resolve().parent / "templates")),
    autoescape=True,  # every {{ }} is escaped, whatever the template's name
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)

# The memory picture's frame, in SVG user units.
_WIDTH, _HEIGHT = 960, 400
_LEFT, _RIGHT, _TOP, _BOTTOM = 90, 20, 16, 40


def _num(value: float) -> str:
    """Coordinates with two decimals at most: the same bytes on every machine."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _size(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):.2f} MiB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.1f} KiB"
    return f"{n} B"


def memory_picture(plan: dict, report: dict) -> dict:
    """Rectangles, marks and ticks of the arena picture."""
    memory = plan["memory"]
    positions = max(len(plan["operators"]), 1)
    arena, bound = memory["scratch_arena_bytes"], memory["lower_bound_bytes"]
    chains = report.get("patches") or []
    top = max([arena, bound, 1] + [c["arena_before_bytes"] for c in chains])
    plot_w, plot_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM

    def x(pos: float) -> float:
        return _LEFT + pos * plot_w / positions

    def y(addr: float) -> float:
        return _TOP + plot_h - addr * plot_h / top

    bands = {band["tensor"]: band for c in plan.get("patches") or [] for band in c["bands"]}
    cached = {band["tensor"] for c in plan.get("patches") or [] if c.get("halo") == "cache" for band in c["bands"]}
    rects = []
    for i, b in enumerate(memory["buffers"]):
        height = b["bytes"] * plot_h / top
        what = ", ".join(b["tensors"]) if b["tensors"] else f"scratch of operator {b['first']}"
        band = next((bands[t] for t in b["tensors"] if t in bands), None)
        rects.append({
            "x": _num(x(b["first"])), "y": _num(y(b["offset"] + b["bytes"])),
            "w": _num(x(b["last"] + 1) - x(b["first"])), "h": _num(max(height, 0.5)),
            "kind": b["kind"] + (" band" if band else ""), "hue": (i * 47) % 360,
            "title": f"{b['name']}: {what}; bytes {b['offset']}..{b['offset'] + b['bytes'] - 1} ({b['bytes']} B), "
                     f"operators {b['first']}..{b['last']}"
                     + (f"; a band of {band['band_rows']} rows at a time ("
                        + ("every row computed once" if band["tensor"] in cached
                           else f"{band['halo_rows']} rows recomputed") + ")"
                        if band else ""),
        })
    index_of = {o["id"]: o["index"] for o in plan["operators"]}
    patch_chains = []
    for plan_chain, c in zip(plan.get("patches") or [], chains):
        first, last = index_of[c["operators"][0]], index_of[c["operators"][-1]]
        patch_chains.append({
            "x": _num(x(first)), "w": _num(x(last + 1) - x(first)), "top": _TOP, "h": plot_h,
            "before_y": _num(y(c["arena_before_bytes"])), "before": c["arena_before_bytes"],
            "patches": c["patches"], "band_rows": plan_chain["band_rows"], "first": first, "last": last,
            "recomputed": c["recomputed_macs"], "total": c["total_macs"], "reason": plan_chain["reason"],
            "added": c.get("added_instructions"), "instructions": c.get("total_instructions"),
            "bound_before": c["lower_bound_before_bytes"], "halo": c.get("halo", plan_chain["halo"]),
            "moved": c.get("moved_bytes", 0),
        })
    peak_index = next((o["index"] for o in report["operators"] if o["id"] == report["memory"]["peak_operator"]), None)
    step = max(1, -(-positions // 20))  # at most about 20 position labels
    return {
        "width": _WIDTH, "height": _HEIGHT, "left": _LEFT, "right": _WIDTH - _RIGHT,
        "plot_top": _TOP, "plot_bottom": _TOP + plot_h,
        "rects": rects,
        "arena_y": _num(y(arena)), "bound_y": _num(y(bound)), "arena": arena, "bound": bound,
        "peak_x": None if peak_index is None else _num(x(peak_index + 0.5)),
        "x_ticks": [{"x": _num(x(p + 0.5)), "label": p} for p in range(0, positions, step)],
        "zero_y": _num(y(0)),
        "chains": patch_chains,
    }


def pool_picture(plan: dict, report: dict) -> dict | None:
    """Rectangles of the stream pool: one per transfer unit, from its issue point to its last reader."""
    pool = report.get("stream_pool")
    if not pool:
        return None
    positions = max(len(plan["operators"]), 1)
    top = max(pool["bytes"], 1)
    plot_w, plot_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM

    def x(pos: float) -> float:
        return _LEFT + pos * plot_w / positions

    def y(addr: float) -> float:
        return _TOP + plot_h - addr * plot_h / top

    rects = [{"x": _num(x(u["first"])), "y": _num(y(u["offset"] + u["bytes"])),
              "w": _num(x(u["last"] + 1) - x(u["first"])), "h": _num(max(u["bytes"] * plot_h / top, 0.5)),
              "kind": "unit", "hue": (u["unit"] * 47) % 360,
              "title": f"unit {u['unit']}: {', '.join(u['tensors'])}; bytes {u['offset']}..{u['offset'] + u['bytes'] - 1} "
                       f"({u['bytes']} B), operators {u['first']}..{u['last']}"}
             for u in pool["layout"]]
    step = max(1, -(-positions // 20))
    return {"width": _WIDTH, "height": _HEIGHT, "left": _LEFT, "right": _WIDTH - _RIGHT, "plot_top": _TOP,
            "plot_bottom": _TOP + plot_h, "rects": rects, "pool_y": _num(y(pool["bytes"])),
            "used_y": _num(y(pool["used_bytes"])), "zero_y": _num(y(0)), "pool": pool,
            "x_ticks": [{"x": _num(x(p + 0.5)), "label": p} for p in range(0, positions, step)],
            "units": _stream_units(plan)}


def _stream_units(plan: dict) -> list[dict]:
    """The transfer units as the table shows them: operators by schedule position (`#k`, the id on
    hover) and the constants as a count (their names on hover): a unit of a fused layer otherwise
    fills a screen."""
    position = {o["id"]: o["index"] for o in plan["operators"]}

    def op(op_id):
        if op_id is None:
            return {"text": "start", "title": ""}
        return {"text": f"#{position[op_id]}" if op_id in position else op_id, "title": op_id}
    return [{"id": u["id"], "count": len(u["tensors"]), "tensors": "\n".join(u["tensors"]),
             "pool_offset": u["pool_offset"], "bytes": u["bytes"], "source": f"{u['source_memory']} + {u['source_offset']}",
             "issue_after": op(u["issue_after"]), "wait_before": op(u["wait_before"]),
             "last_reader": op(u["last_reader"]), "engine": u["engine"]} for u in plan["schedule"]["units"]]


def short_id(op_id: str, subgraph: str) -> tuple[str, int]:
    """The label of an operator id in the layer table and how many fused names it leaves out.

    A converter names a fused layer by all its parts (`model/act/Relu;model/bn/FusedBatchNormV3;...`,
    hundreds of characters): the table shows the subgraph-free first part and `+N`, the cell's title
    the whole id."""
    name = op_id.removeprefix(f"{subgraph}:")
    first, *rest = name.split(";")
    return (first, len(rest)) if first else (name, 0)


def _ranks(values: list) -> list[int]:
    """Each row's place when sorted by `values`, largest first (None last), ties in schedule order:
    the CSS `order` of the row under that sort."""
    keyed = sorted(range(len(values)), key=lambda i: (values[i] is None, -(values[i] or 0), i))
    ranks = [0] * len(values)
    for place, i in enumerate(keyed):
        ranks[i] = place
    return ranks


def _bar(value: int | None, largest: int) -> str:
    """A bar's length in percent of its cell: the layer against the largest one."""
    return _num(100 * value / largest) if value and largest else "0"


# Element types as CMSIS-NN's entry names spell them (arm_convolve_s8, arm_fully_connected_f32): four
# operands of float32 do not fit a narrow column, `f32 f32 f32 -> f32` does; the title spells them out.
_SHORT_DTYPES = {"int8": "s8", "int16": "s16", "int32": "s32", "int64": "s64", "uint8": "u8", "uint16": "u16",
                 "uint32": "u32", "uint64": "u64", "float16": "f16", "float32": "f32", "float64": "f64"}


def _dtypes_text(inputs: list, outputs: list, short: bool) -> str:
    def name(d):
        return "-" if d is None else _SHORT_DTYPES.get(d, d) if short else d
    return " ".join(name(d) for d in inputs) + " \u2192 " + " ".join(name(d) for d in outputs)


def layer_table(plan: dict, report: dict) -> dict:
    """Rows of the layer table, the operator types the filter offers and the sort keys."""
    planned = {o["index"]: o for o in plan["operators"]}
    subgraph = plan["model"]["subgraph"]
    types = sorted({o["op_type"] for o in report["operators"]})
    type_index = {t: i for i, t in enumerate(types)}
    rows = []
    for o in report["operators"]:
        p = planned.get(o["index"], {})
        if o["entry"]:
            entry, entry_title = o["entry"], ""
        elif p.get("alias_of") is not None:
            entry, entry_title = "none (alias)", f"no code: the output reuses the bytes of tensor {p['alias_of']}"
        else:
            entry, entry_title = "inline C", ""
        label, fused = short_id(o["id"], subgraph)
        rows.append({"index": o["index"], "id": o["id"], "label": label, "fused": fused, "type": o["op_type"],
                     "type_index": type_index[o["op_type"]], "variant": p.get("variant", ""),
                     "dtypes": _dtypes_text(o.get("input_dtypes", []), o.get("output_dtypes", []), short=True),
                     "dtypes_title": _dtypes_text(o.get("input_dtypes", []), o.get("output_dtypes", []), short=False),
                     "entry": entry, "entry_title": entry_title, "macs": o["macs"],
                     "scratch": o["local_scratch_bytes"], "constants": o["constant_bytes"],
                     "cost": _chosen_estimate(p), "options": _options_text(p)})
    largest_macs = max((r["macs"] for r in rows), default=0)
    largest_cost = max((r["cost"] or 0 for r in rows), default=0)
    sorts = {"macs": "MACs", "scratch": "scratch", "constants": "constants", "cost": "est. instructions"}
    for key in sorts:
        for r, rank in zip(rows, _ranks([r[key] for r in rows])):
            r[f"rank_{key}"] = rank
    for r in rows:
        r["macs_bar"], r["cost_bar"] = _bar(r["macs"], largest_macs), _bar(r["cost"], largest_cost)
    return {"rows": rows, "types": [{"index": i, "name": t, "count": sum(r["type"] == t for r in rows)}
                                    for i, t in enumerate(types)],
            "sorts": sorts, "estimated": any(r["cost"] is not None for r in rows)}


def _chosen_estimate(op: dict) -> int | None:
    """The cost table's instruction estimate of the entry the kernel choice took, if any."""
    choice = (op.get("kernel") or {}).get("choice")
    if not choice:
        return None
    return next((o["estimated_instructions"] for o in choice["options"] if o["entry"] == choice["chosen"]), None)


def _options_text(op: dict) -> str:
    """The entries the kernel choice weighed, as `entry: instructions, scratch B` lines (a tooltip)."""
    choice = (op.get("kernel") or {}).get("choice")
    if not choice:
        return ""
    return "\n".join(f"{o['entry']}: {o['estimated_instructions']} instructions, {o['scratch_bytes']} B scratch"
                     for o in choice["options"]) + f"\nchosen by {choice['reason']}"


def _memories(plan: dict, report: dict) -> list[dict]:
    memory = plan["memory"]
    known = report.get("target_memories")
    if known is None:  # a report written before the field existed: the built-in target's, if it is one
        found = [t for t in builtin_targets() if t.name == plan["platform"]["name"]]
        known = [{"name": m.name, "bytes": m.size, "writable": m.writable} for m in found[0].memories] if found else []
    rows = []
    placed = {u["memory"]: u for u in report.get("memory_use") or []}
    # A placed module (stream pool, second arena, staged or streamed constants) lists every block.
    placement = placed and (report.get("stream_pool") is not None or len(plan["memory"].get("arenas", [])) > 1
                            or any(c.get("residency", "direct") != "direct" for c in plan.get("tensors", [])))
    for m in known:
        if placement:
            u = placed.get(m["name"], {"holds": [], "used": 0})
            used, room = u["used"], u.get("budget") or m["bytes"]
            share = used / room if room else 0.0
            rows.append({"name": m["name"], "size": m["bytes"], "size_text": _size(m["bytes"]),
                         "uses": ", ".join(f"{h['what']} {h['bytes']} B" for h in u["holds"]) or "-",
                         "used": used, "percent": f"{100 * share:.1f}", "bar": _num(min(share, 1.0) * 100),
                         "over": used > room})
            continue
        uses = []
        if m["name"] == memory["scratch_memory"]:
            uses.append(("scratch arena", memory["scratch_arena_bytes"]))
        if m["name"] == memory["constant_memory"]:
            uses.append(("constants", report["memory"]["constant_bytes"]))
        used = sum(b for _, b in uses)
        share = used / m["bytes"] if m["bytes"] else 0.0
        rows.append({"name": m["name"], "size": m["bytes"], "size_text": _size(m["bytes"]),
                     "uses": ", ".join(f"{what} {b} B" for what, b in uses) or "-",
                     "used": used, "percent": f"{100 * share:.1f}", "bar": _num(min(share, 1.0) * 100),
                     "over": used > m["bytes"]})
    return rows


def _scale_text(values: list[float]) -> str:
    # 9 significant digits: a float32 scale reads back exactly.
    return f"{values[0]:.9g}"


def _port(t: dict, direction: str, prefix: str) -> dict:
    """One input or output of the interface as the table shows it."""
    q = t.get("quantization")
    scale, zero, title = "-", "-", ""
    if q:
        scales, zeros = q.get("scale") or [], q.get("zero_point") or []
        if len(scales) == 1:
            scale = _scale_text(scales)
        elif scales:
            scale = f"{len(scales)} per axis {q.get('axis')}"
            shown = ", ".join(f"{v:.9g}" for v in scales[:16]) + (", ..." if len(scales) > 16 else "")
            title = f"scales along axis {q.get('axis')}: {shown}"
        if zeros:
            zero = str(zeros[0]) if len(set(zeros)) == 1 else f"{len(zeros)} per axis {q.get('axis')}"
    shape = t.get("shape") or []
    return {"index": t["index"], "name": t["name"], "dtype": t["dtype"],
            "shape": "[" + ", ".join(str(d) for d in shape) + "]", "elements": t.get("elements"),
            "bytes": t.get("bytes"), "scale": scale, "scale_title": title, "zero_point": zero,
            "accessor": f"{prefix}_model_{direction}(ctx, {t['index']})"}


def interface(plan: dict) -> dict | None:
    """The model's inputs and outputs (plan["interface"]), or None for a plan written before it existed."""
    found = plan.get("interface")
    if not found:
        return None
    prefix = plan["module_prefix"]
    return {"inputs": [_port(t, "input", prefix) for t in found.get("inputs", [])],
            "outputs": [_port(t, "output", prefix) for t in found.get("outputs", [])]}


def _entries(plan: dict, report: dict) -> list[str]:
    """Every kernel symbol the module calls: the report's kernel calls and the planned entries (the
    Signal kernels are entries the call list does not name)."""
    symbols = {c["symbol"] for c in report.get("kernel_calls", [])}
    symbols |= {o["kernel"]["entry"] for o in plan["operators"] if (o.get("kernel") or {}).get("entry")}
    return sorted(symbols)


def build_switches(plan: dict, report: dict) -> list[str]:
    """The switches the module and ns-cmsis-nn must both be compiled with (<prefix>_common.h refuses
    to compile without them): those of the float entries called and those the variants declare (an
    alias emits no code and needs none)."""
    switches = set(library_switches(_entries(plan, report)))
    for o in plan["operators"]:
        module = ops.get(o["op_type"])
        if module is None or o.get("alias_of") is not None:
            continue
        switches |= {s for v in module.variants if v.name == o.get("variant") for s in v.switches}
    return sorted(switches)


def integration(plan: dict, report: dict) -> dict:
    """What a firmware build compiles and links for this module, from the plan's kernel library,
    target and calls."""
    entries = _entries(plan, report)
    library, platform = plan["kernel_library"], plan["platform"]
    cpu = platform["cpu"]
    return {
        "prefix": plan["module_prefix"],
        "library": library["name"], "version": library["version"], "build": library["build"],
        "cpu": cpu, "host": cpu == HOST_CPU,
        "library_entries": [e for e in entries
                            if not e.startswith((SIGNAL_PREFIX, *(f.prefix for f in own_kernels.FAMILIES)))],
        # Each of our kernel families the core links (own_kernels.families_for), with the entries called.
        "own_kernels": [{"name": f.name, "title": f.title, "folder": f.folder, "header": f.header,
                         "entries": [e for e in entries if e.startswith(f.prefix)]}
                        for f in own_kernels.families_for(platform.get("capabilities", []))],
        "signal_entries": [e for e in entries if e.startswith(SIGNAL_PREFIX)],
        "switches": build_switches(plan, report),
        "arena": plan["memory"].get("arena", "static"),
        "arena_bytes": plan["memory"]["scratch_arena_bytes"],
        "arena_alignment": plan["memory"].get("arena_alignment", 16),
    }


def compile_lines(facts: dict) -> list[str]:
    """A compile command for the module and the helia-aot kernels it needs, one argument group a line."""
    prefix = facts["prefix"]
    compiler = "cc" if facts["host"] else f"arm-none-eabi-gcc -mcpu={facts['cpu']}"
    lines = [f"{compiler} -std=c99 -O2"]
    lines += [f"-D{s}=1" for s in facts["switches"]]
    lines.append(f"-I {prefix}/include")
    if facts["library"] == "ns_cmsis_nn":
        lines.append("-I <ns-cmsis-nn>/Include")
    else:
        lines.append("-I <helia-aot>/kernels/portable/include")
    called = [k for k in facts["own_kernels"] if k["entries"]]
    lines += [f"-I <helia-aot>/{k['folder']}/include" for k in called]
    if facts["signal_entries"] and facts["library"] == "ns_cmsis_nn":
        lines.append("-I <helia-aot>/kernels/portable/include")  # after the library's: its arm_*.h first
    lines.append(f"-c {prefix}/src/*.c")
    lines += [f"<helia-aot>/{k['folder']}/src/*.c" for k in called]
    if facts["signal_entries"] and facts["library"] == "ns_cmsis_nn":
        lines.append("<helia-aot>/kernels/portable/src/signal/*.c")
    return lines


def kernel_choice(plan: dict, report: dict) -> dict | None:
    """The trade of the kernel choice: the report's two ends and, per layer that had a choice, its options."""
    summary = report.get("kernel_choice")
    if not summary:
        return None
    subgraph = plan["model"]["subgraph"]
    layers = []
    for o in plan["operators"]:
        choice = (o.get("kernel") or {}).get("choice")
        if not choice or len(choice["options"]) < 2:
            continue
        options = sorted(choice["options"], key=lambda c: (c["estimated_instructions"], c["scratch_bytes"], c["entry"]))
        label, fused = short_id(o["id"], subgraph)
        chosen = next((c for c in options if c["entry"] == choice["chosen"]), options[0])

        def against(c: dict) -> str:
            if c is chosen or not chosen["estimated_instructions"]:
                return ""
            return f"\u00d7{c['estimated_instructions'] / chosen['estimated_instructions']:.2f}"
        layers.append({"index": o["index"], "id": o["id"], "label": label, "fused": fused, "type": o["op_type"],
                       "chosen": choice["chosen"], "reason": choice["reason"],
                       "options": [dict(c, chosen=c is chosen, against=against(c)) for c in options]})
    return {"summary": summary, "layers": layers}


def render(plan: dict, report: dict) -> str:
    """The page for a plan and report (as JSON-shaped dicts)."""
    memory = report["memory"]
    facts = integration(plan, report)
    table = layer_table(plan, report)
    return _ENV.get_template("report.html.j2").render(
        plan=plan, report=report, picture=memory_picture(plan, report), table=table,
        memories=_memories(plan, report), size=_size, pool=pool_picture(plan, report),
        interface=interface(plan), integration=facts, compile_command=" \\\n    ".join(compile_lines(facts)),
        choice=kernel_choice(plan, report),
        summary={"arena": memory["scratch_arena_bytes"], "bound": memory["lower_bound_bytes"],
                 "ratio": memory["ratio"], "constants": memory["constant_bytes"], "macs": report["total_macs"],
                 "buffers": len(plan["memory"]["buffers"]), "operators": len(report["operators"]),
                 "instructions": (report.get("kernel_choice") or {}).get("chosen", {}).get("estimated_instructions")})


def regenerate(output_dir) -> Path:
    """Write OUTDIR/<prefix>_report.html again from OUTDIR's plan and report (`helia-aot report`)."""
    out = Path(output_dir)
    plans = sorted(out.glob("*_plan.json")) if out.is_dir() else []
    if len(plans) != 1:
        what = "no *_plan.json" if not plans else f"{len(plans)} plans ({', '.join(p.name for p in plans)})"
        raise OutputDirError(f"{out} holds {what}", "Pass a directory `helia-aot convert` wrote")
    prefix = plans[0].name[:-len("_plan.json")]
    report_path = out / f"{prefix}_report.json"
    hint = "Pass a directory `helia-aot convert` wrote"
    try:
        plan = json.loads(user_files.read_bytes(plans[0], "plan", user_files.PLAN_LIMIT, OutputDirError, hint))
        report = json.loads(user_files.read_bytes(report_path, "report", user_files.PLAN_LIMIT, OutputDirError, hint))
    except ValueError as exc:
        raise OutputDirError(f"{out}: the plan or report is not valid JSON ({exc})",
                             "Convert the model again") from None
    target = out / f"{prefix}_report.html"
    try:
        target.write_text(render(plan, report), encoding="utf-8")
    except KeyError as exc:
        raise OutputDirError(f"{out}: the plan or report lacks {exc} (written by another helia-aot release?)",
                             "Convert the model again with this release") from None
    except (TypeError, IndexError, AttributeError, ValueError) as exc:
        raise OutputDirError(f"{out}: the plan or report holds a value of another shape ({exc}; written by another "
                             "helia-aot release?)", "Convert the model again with this release") from None
    except OSError as exc:
        raise OutputDirError(f"cannot write {target}: {exc.strerror}", "Check the directory's permissions") from None
    return target
