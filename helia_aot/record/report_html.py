# SPDX-License-Identifier: Apache-2.0
"""<prefix>_report.html: the plan and report as one self-contained page.

A per-layer table, an SVG picture of the scratch arena (address against schedule position, one
rectangle per planned buffer) and the totals against the target's memories. The page loads nothing
(inline CSS and SVG, no script), and its bytes depend only on the plan and report. Every string from
the model reaches it through Jinja's autoescaping: a model is untrusted input.
"""

from __future__ import annotations

import json
from pathlib import Path

import jinja2

from helia_aot.config.targets import builtin_targets
from helia_aot import user_files
from helia_aot.errors import OutputDirError

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
    top = max(arena, bound, 1)
    plot_w, plot_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM

    def x(pos: float) -> float:
        return _LEFT + pos * plot_w / positions

    def y(addr: float) -> float:
        return _TOP + plot_h - addr * plot_h / top

    rects = []
    for i, b in enumerate(memory["buffers"]):
        height = b["bytes"] * plot_h / top
        what = ", ".join(b["tensors"]) if b["tensors"] else f"scratch of operator {b['first']}"
        rects.append({
            "x": _num(x(b["first"])), "y": _num(y(b["offset"] + b["bytes"])),
            "w": _num(x(b["last"] + 1) - x(b["first"])), "h": _num(max(height, 0.5)),
            "kind": b["kind"], "hue": (i * 47) % 360,
            "title": f"{b['name']}: {what}; bytes {b['offset']}..{b['offset'] + b['bytes'] - 1} ({b['bytes']} B), "
                     f"operators {b['first']}..{b['last']}",
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
            "units": plan["schedule"]["units"]}


def _operator_rows(plan: dict, report: dict) -> list[dict]:
    planned = {o["index"]: o for o in plan["operators"]}
    rows = []
    for o in report["operators"]:
        p = planned.get(o["index"], {})
        if o["entry"]:
            entry = o["entry"]
        elif p.get("alias_of") is not None:
            entry = f"none (alias of {p['alias_of']})"
        else:
            entry = "inline C"
        dtypes = " ".join(d or "-" for d in o.get("input_dtypes", [])) + " \u2192 " + \
            " ".join(o.get("output_dtypes", []))
        rows.append({"index": o["index"], "id": o["id"], "type": o["op_type"], "variant": p.get("variant", ""),
                     "dtypes": dtypes.strip(), "entry": entry, "macs": o["macs"],
                     "scratch": o["local_scratch_bytes"], "constants": o["constant_bytes"],
                     "cost": _chosen_estimate(p), "options": _options_text(p)})
    return rows


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


def render(plan: dict, report: dict) -> str:
    """The page for a plan and report (as JSON-shaped dicts)."""
    memory = report["memory"]
    return _ENV.get_template("report.html.j2").render(
        plan=plan, report=report, picture=memory_picture(plan, report), rows=_operator_rows(plan, report),
        memories=_memories(plan, report), size=_size, pool=pool_picture(plan, report),
        summary={"arena": memory["scratch_arena_bytes"], "bound": memory["lower_bound_bytes"],
                 "ratio": memory["ratio"], "constants": memory["constant_bytes"], "macs": report["total_macs"],
                 "buffers": len(plan["memory"]["buffers"]), "operators": len(report["operators"])})


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
    except (KeyError, TypeError, IndexError) as exc:
        raise OutputDirError(f"{out}: the plan or report lacks {exc} (written by another helia-aot release?)",
                             "Convert the model again with this release") from None
    except OSError as exc:
        raise OutputDirError(f"cannot write {target}: {exc.strerror}", "Check the directory's permissions") from None
    return target
