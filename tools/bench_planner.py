# SPDX-License-Identifier: Apache-2.0
"""Time and peak memory of the memory planner on graphs with many tensors live at once (issue #25).

    tools/bench_planner.py [N ...]        (default 1000 6000 20000; run inside the rootfs venv)

Each graph: N operators each read the graph input and write a tensor of its own (every 16th through a
RESHAPE chain of two, every 8th an in-place-capable ADD of the previous output and the input), and one
last operator reads them all, so about N tensors are live at the last step. Timed: plan_memory (the
planner with in-place sharing, as the pipeline runs it) and one offset lookup per tensor (as emission
does), in CPU seconds (machines are shared). Peak memory: how far planning raised the process's peak
resident set (each size runs in a process of its own, the graph built before the baseline is taken);
with --trace also tracemalloc's peak over the same work, in a second run (tracing slows it down).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from helia_aot.ir.graph import Tensor  # noqa: E402
from helia_aot.memory import arena_planner  # noqa: E402

ADD = "arm_elementwise_add_s8"


def _step(position, inputs, outputs, entry=None, alias=False, scratch=0):
    return SimpleNamespace(position=position, op=SimpleNamespace(inputs=inputs, outputs=outputs),
                           lowering=SimpleNamespace(alias=alias, scratch_bytes=scratch, entry=entry, state=[]))


def many_live(n: int, seed: int = 25):
    """A graph of about `n` tensors live at once (see the module docstring)."""
    rng = random.Random(seed)
    tensors = [Tensor(0, "x", (256,), "int8")]
    steps = []

    def tensor(size: int) -> int:
        tensors.append(Tensor(len(tensors), f"t{len(tensors)}", (size,), "int8"))
        return len(tensors) - 1

    finals = []
    for i in range(n):
        if i % 8 == 7 and finals and tensors[finals[-1]].nbytes == 256:
            out = tensor(256)
            steps.append(_step(len(steps), [finals.pop(), 0], [out], entry=ADD))
        else:
            out = tensor(rng.choice((16, 48, 256, 1000, 4096)))
            steps.append(_step(len(steps), [0], [out], scratch=rng.choice((0, 0, 0, 64, 512))))
        if i % 16 == 5:
            for _ in range(2):
                alias = tensor(tensors[out].nbytes)
                steps.append(_step(len(steps), [out], [alias], alias=True))
                out = alias
        finals.append(out)
    y = tensor(16)
    steps.append(_step(len(steps), finals, [y]))
    graph = SimpleNamespace(tensors=tensors, operators=[s.op for s in steps], inputs=[0], outputs=[y])
    return graph, steps


def plan_and_look_up(graph, steps):
    layout = arena_planner.plan_memory(graph, steps, 16)
    for t in range(len(graph.tensors)):
        layout.tensor_offset(t)
    return layout


def measure(n: int, trace: bool) -> str:
    graph, steps = many_live(n)
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    layout = plan_and_look_up(graph, steps)
    seconds = time.process_time() - start
    rss = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - baseline) / 1024  # ru_maxrss is KiB
    traced = "-"
    if trace:
        tracemalloc.start()
        plan_and_look_up(graph, steps)
        traced = f"{tracemalloc.get_traced_memory()[1] / 2**20:.1f}"
        tracemalloc.stop()
    arena = layout.arena
    live = sum(1 for b in arena.buffers if b.first <= arena.peak_step <= b.last)
    # The layout itself, so runs of two planner versions can be compared: every buffer's place, the in-place pairs.
    digest = hashlib.sha256(repr(([(b.name, b.offset) for b in arena.buffers], layout.in_place)).encode())
    return (f"{len(graph.tensors):>8} {live:>12} {seconds:>9.3f} {rss:>12.1f} {traced:>12} {arena.arena_bytes:>10} "
            f"{arena.lower_bound:>10} {digest.hexdigest()[:12]}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 6000, 20000])
    parser.add_argument("--trace", action="store_true", help="also report tracemalloc's peak (a second run)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # one size, in this process
    args = parser.parse_args(argv)
    if args.one is not None:
        print(measure(args.one, args.trace), flush=True)
        return 0
    print(f"{'tensors':>8} {'live at peak':>12} {'CPU s':>9} {'+peak RSS MiB':>12} {'traced MiB':>12} "
          f"{'arena B':>10} {'bound B':>10} layout", flush=True)
    for n in args.sizes:
        subprocess.run([sys.executable, __file__, "--one", str(n), *(["--trace"] if args.trace else [])], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
