# SPDX-License-Identifier: Apache-2.0
"""cortex_m_test: build a firmware for a Cortex-M platform and run it on a simulator as a test."""

def _firmware_transition_impl(settings, attr):
    return {
        "//command_line_option:platforms": [str(attr.platform)],
        # Firmware is measured as shipped: optimised, whatever the caller's compilation mode.
        "//command_line_option:compilation_mode": "opt",
    }

firmware_transition = transition(
    implementation = _firmware_transition_impl,
    inputs = [],
    outputs = [
        "//command_line_option:platforms",
        "//command_line_option:compilation_mode",
    ],
)

def _shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"

def _cortex_m_test_impl(ctx):
    firmware = ctx.attr.firmware[0][DefaultInfo].files_to_run.executable
    runner = ctx.executable._runner
    arguments = [
        "--simulator=" + ctx.attr.simulator,
        "--machine=" + ctx.attr.qemu_machine,
        "--expect-exit=%d" % ctx.attr.expect_exit_code,
        "--timeout=%d" % ctx.attr.simulator_timeout,
    ] + ["--expect-output=" + text for text in ctx.attr.expected_output]
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = "#!/usr/bin/env bash\nexec {runner} {arguments} {firmware} \"$@\"\n".format(
            runner = _shell_quote(runner.short_path),
            arguments = " ".join([_shell_quote(a) for a in arguments]),
            firmware = _shell_quote(firmware.short_path),
        ),
    )
    runfiles = ctx.runfiles(files = [firmware, runner])
    return [
        DefaultInfo(executable = script, runfiles = runfiles),
        RunEnvironmentInfo(inherited_environment = ["HELIA_FVP"]),
    ]

cortex_m_test = rule(
    implementation = _cortex_m_test_impl,
    test = True,
    attrs = {
        "firmware": attr.label(
            mandatory = True,
            cfg = firmware_transition,
            executable = True,
            doc = "The firmware cc_binary. It is built for `platform` in opt mode and must end with exit().",
        ),
        "platform": attr.label(
            default = "//toolchains/platforms:corstone300",
            doc = "The platform the firmware is built for; it must be one the simulator emulates.",
        ),
        "simulator": attr.string(
            default = "qemu",
            values = ["qemu", "fvp"],
            doc = "qemu: QEMU (qemu_machine) with -icount shift=0. fvp: Arm's FVP_Corstone_SSE-300, found " +
                  "through the HELIA_FVP environment variable or PATH.",
        ),
        "qemu_machine": attr.string(
            default = "mps3-an547",
            doc = "The QEMU machine (-M) that runs the firmware with simulator qemu: the qemu_machine of " +
                  "the platform's board in toolchains/arm_gnu/cores.bzl (mps3-an547 for corstone300).",
        ),
        "expect_exit_code": attr.int(
            default = 0,
            doc = "The exit code that makes the test pass. Non-zero turns the test into an " +
                  "expected-failure check.",
        ),
        "expected_output": attr.string_list(
            doc = "Texts that must each appear in the firmware's semihosting output.",
        ),
        "simulator_timeout": attr.int(
            default = 300,
            doc = "Seconds before a firmware that never exits is stopped and the test fails.",
        ),
        "_runner": attr.label(
            default = "//toolchains/simulators:run_firmware",
            executable = True,
            cfg = "exec",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    doc = "Runs a Cortex-M firmware on a simulator; the firmware's exit code is the verdict.",
)
