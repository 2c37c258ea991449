# SPDX-License-Identifier: Apache-2.0
"""The benchmark's Markdown table and the notes that say how each column was measured."""

from __future__ import annotations

from .kernels import NS_CMSIS_NN, PORTABLE

METHOD = {
    "conversion": "helia_aot.convert(model, prefix='net', target=<target>) run 3 times in this process; "
                  "median wall time (includes writing the C files; the first run also pays imports).",
    "kernel_choice": "the report's kernel_choice: scratch arena and the cost table's estimated instructions of "
                     "the plans optimization.goal size and latency would make (the row's plan is the "
                     "configured goal, balanced by default).",
    "memory": "scratch arena, lower bound (largest sum of simultaneously live tensors plus that operator's "
              "kernel scratch), ratio and constant bytes from the compiler's report.",
    "code_size": "module and kernels compiled with arm-none-eabi-gcc, the target core's flags from "
                 "toolchains/arm_gnu/cores.bzl (Bazel's Arm toolchains), -Os -ffunction-sections -fdata-sections, "
                 "linked with -Wl,--gc-sections into a minimal firmware (the board's startup, picolibc, a main "
                 "calling the module's C API once) against "
                 "the portable kernel library. The linker map attributes every kept input section to the "
                 "module's objects, the kernel archive or the rest (startup, libc, libgcc): 'module' is the "
                 "module alone (its .rodata holds the weights), '+kernels' adds the kernels the linker kept. "
                 "'firmware_total' is arm-none-eabi-size -A of the whole ELF without the board's heap and "
                 "stack reservations. Alignment padding between sections is attributed to nobody.",
    "instructions": "per kernel library, the model converted for that library (--kernel_library, as a Bazel "
                    "build with that //kernels:backend converts it; the memory and code size columns are of the "
                    "default conversion), in a firmware (module + kernels + board startup, all compiled with "
                    "Bazel's opt flags, -O2) on QEMU with -icount shift=0: "
                    "corstone300 on mps3-an547 (Cortex-M55; ns-cmsis-nn's MVE build), apollo4p_evb on mps2-an386 "
                    "(Cortex-M4; ns-cmsis-nn's DSP build), each QEMU board's target (mps2_an385, ...) on its own "
                    "machine and core; one warm-up model_run, then one warm model_run timed with "
                    "the SysTick counter the golden tests use (toolchains/corstone300/instruction_counter.h; "
                    "instructions = ticks x 1e9 / the board's SysTick clock: x 31.25 on AN547 and AN524, x 40 on "
                    "the MPS2 images, x 50 on AN505, x 62.5 on the micro:bit: the resolution). Seeded "
                    "inputs. Machine and QEMU arguments come from toolchains/arm_gnu/cores.bzl.",
    "glue": "a second firmware wraps every kernel entry the module calls (-Wl,--wrap) with SysTick reads and "
            "fills the module's HELIA_OP_BEGIN/END hooks; glue = model_run instructions minus the "
            "instructions inside kernel calls (timer overhead measured on 1024 empty wrapped calls and "
            "subtracted). Glue includes parameter set-up in each operator, the schedule, status checks, "
            "output copies and operators lowered to inline C. Each timed call is exact to about one tick.",
    "macs": "total MACs from the compiler's report; instructions/MAC = model_run instructions / total MACs.",
}


def _int(value) -> str:
    return "n/a" if value is None else f"{value:,}"


def _backend_cells(row: dict, backend: str) -> list[str]:
    figures = (row.get("backends") or {}).get(backend)
    if not figures or "model_run_instructions" not in figures:
        return ["n/a", "n/a", "n/a"]
    count = figures["model_run_instructions"]
    macs = row.get("total_macs") or 0
    share = figures.get("glue_share")
    glue = "n/a" if share is None else f"{figures['glue_instructions']:,} ({100 * share:.2g}%)"
    return [_int(count), f"{count / macs:.2f}" if macs else "n/a", glue]


HEADER = ["model", "target", "convert s", "arena B", "lower bound B", "ratio", "peer arena B",
          "arena size/latency B", "est. instr size/latency", "constants B",
          "module .text", "module .rodata", "module .data+.bss", "+kernels .text", "+kernels .rodata",
          "MACs", f"instr ({PORTABLE})", "instr/MAC", "glue instr (share)", f"instr ({NS_CMSIS_NN})", "instr/MAC",
          "glue instr (share)"]


def markdown(rows: list[dict]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "|".join("---" for _ in HEADER) + "|"]
    for row in rows:
        if "error" in row and "conversion" not in row:
            lines.append("| " + " | ".join([row["name"], row.get("target", ""), f"error: {row['error']}"]
                                           + [""] * (len(HEADER) - 3)) + " |")
            continue
        conv = row["conversion"]
        size = row.get("code_size") or {}
        module = size.get("module") or {}
        both = size.get("module_with_kernels") or {}
        choice = conv.get("kernel_choice") or {}
        ends = [choice.get(end) or {} for end in ("size", "latency")]
        cells = [row["name"], row.get("target", ""), f"{conv['seconds_median']:.3f}", _int(conv["scratch_arena_bytes"]),
                 _int(conv["lower_bound_bytes"]), f"{conv['ratio']:.3f}", _int(conv["peer_scratch_arena_bytes"]),
                 " / ".join(_int(e.get("scratch_arena_bytes")) for e in ends) if choice else "n/a",
                 " / ".join(_int(e.get("estimated_instructions")) for e in ends) if choice else "n/a",
                 _int(conv["constant_bytes"]), _int(module.get("text")), _int(module.get("rodata")),
                 "n/a" if not module else _int(module["data"] + module["bss"]),
                 _int(both.get("text")), _int(both.get("rodata")), _int(row.get("total_macs"))]
        cells += _backend_cells(row, PORTABLE) + _backend_cells(row, NS_CMSIS_NN)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def notes(rows: list[dict], ns_configured: bool) -> str:
    lines = ["", "How each column was measured:"]
    lines += [f"- {key}: {text}" for key, text in METHOD.items()]
    if not ns_configured:
        lines.append(f"- {NS_CMSIS_NN}: n/a, not configured (set HELIA_NS_CMSIS_NN_DIR).")
    for row in rows:
        checksums = {f["output_checksum"] for f in (row.get("backends") or {}).values() if "output_checksum" in f}
        if len(checksums) > 1:
            lines.append(f"- {row['name']} ({row.get('target')}): the kernel libraries computed different outputs ({', '.join(sorted(checksums))}).")
        elif checksums and len(row["backends"]) > 1:
            lines.append(f"- {row['name']} ({row.get('target')}): every kernel library computed the same outputs (checksum {checksums.pop()}).")
        for backend, figures in (row.get("backends") or {}).items():
            if figures and "error" in figures:
                lines.append(f"- {row['name']} ({row.get('target')}, {backend}): {figures['error'].splitlines()[0]}")
        if "error" in row:
            lines.append(f"- {row['name']} ({row.get('target')}): {row['error'].splitlines()[0]}")
    return "\n".join(lines)
