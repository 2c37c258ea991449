# SPDX-License-Identifier: Apache-2.0
"""The instruction counts a firmware prints through helia_counter_report()
(toolchains/corstone300/instruction_counter.h), read back: the one line format of the golden test
harness, the benchmark and the kernel cost measurement."""

from __future__ import annotations

import dataclasses
import re

REPORT_LINE = re.compile(r"^helia: (?P<what>.+?) instructions: (?P<instructions>\d+) \((?P<run>first|warm) run; "
                         r"(?P<ticks>\d+) SysTick ticks x (?P<whole>\d+)\.(?P<hundredths>\d\d); "
                         r"(?P<optimization>[^)]*)\)$")


@dataclasses.dataclass(frozen=True)
class Count:
    """One timed window: what was timed, whether it was the code's first run or a warm repeat, the
    SysTick ticks and the instructions the firmware derived from them, and its optimization."""

    what: str
    run: str  # "first" or "warm"
    ticks: int
    instructions: int
    instructions_per_tick_x100: int
    optimization: str


def counts(output: str) -> list[Count]:
    """Every count line in a firmware's output, in order."""
    found = []
    for line in output.splitlines():
        match = REPORT_LINE.match(line.strip())
        if match:
            found.append(Count(match["what"], match["run"], int(match["ticks"]), int(match["instructions"]),
                               int(match["whole"]) * 100 + int(match["hundredths"]), match["optimization"]))
    return found


def only(output: str, what: str, run: str) -> Count | None:
    """The one count of `what` on a `run` ("first" or "warm") run, or None when the output has none or
    several."""
    matching = [c for c in counts(output) if c.what == what and c.run == run]
    return matching[0] if len(matching) == 1 else None
