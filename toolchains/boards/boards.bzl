# SPDX-License-Identifier: Apache-2.0
"""One cc_library per board of cores.bzl's BOARDS: startup, linker script and instruction counter."""

load("//toolchains/arm_gnu:cores.bzl", "BOARDS", "CORES")
load("//toolchains/simulators:defs.bzl", "cortex_m_test")

def file_label(path):
    """The label of a repository-relative file path such as toolchains/mps2/mps2.ld."""
    package, _, name = path.rpartition("/")
    return Label("//" + package + ":" + name)

def board_constraints(board):
    """The core constraints a board runs: one of them must be the platform's."""
    return ["//toolchains/constraints:" + name for name, core in CORES.items() if board in core_boards(core)]

def core_boards(core):
    """The boards that run a core: its board first, then its other_boards."""
    return ([core["board"]] if core["board"] else []) + core.get("other_boards", [])

def board_runtimes():
    for board, facts in BOARDS.items():
        linker_script = file_label(facts["linker_script"])
        native.cc_library(
            name = board,
            srcs = [
                file_label(facts["startup"]),
                Label("//toolchains/corstone300:instruction_counter.c"),
            ],
            additional_linker_inputs = [linker_script],
            # The counter and every harness that reports a count convert ticks with this board's clock.
            defines = ["HELIA_INSTRUCTIONS_PER_TICK_X100={}u".format(facts["instructions_per_tick_x100"])],
            linkopts = [
                "-nostartfiles",
                "-T",
                "$(location {})".format(linker_script),
            ],
            # Any core of this board: a platform of another core has no business linking it.
            target_compatible_with = select(dict(
                {c: [] for c in board_constraints(board)},
                **{"//conditions:default": ["@platforms//:incompatible"]}
            )),
            deps = [Label("//toolchains/corstone300:instruction_counter_headers")],
            alwayslink = True,
        )

def counter_tests():
    """Per emulated core and board: a firmware built for the core's platform boots on the board's QEMU
    machine and the SysTick counter counts a loop of known length (counter_test.c)."""
    for name, core in CORES.items():
        for board in core_boards(core):
            test = name if board == core["board"] else name + "_" + board
            native.cc_binary(
                name = test + "_counter_firmware",
                srcs = ["counter_test.c"],
                copts = ["-Wall", "-Wextra", "-Werror"],
                target_compatible_with = ["//toolchains/constraints:" + name],
                deps = [":" + board],
            )
            cortex_m_test(
                name = test + "_counter_test",
                size = "small",
                expected_output = ["helia: counter self-test passed"],
                firmware = ":" + test + "_counter_firmware",
                platform = "//toolchains/platforms:" + name,
                qemu_machine = BOARDS[board]["qemu_machine"],
            )

def board_files():
    """The startup code and linker script of every board in BOARDS, and the counter's sources."""
    files = {}
    for facts in BOARDS.values():
        files[facts["startup"]] = True
        files[facts["linker_script"]] = True
    return [file_label(path) for path in files] + [
        Label("//toolchains/corstone300:instruction_counter.c"),
        Label("//toolchains/corstone300:instruction_counter_headers"),
    ]
