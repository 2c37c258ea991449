# SPDX-License-Identifier: Apache-2.0
"""cortex_m_build_only_test: code built for a core no emulator here runs (cores.bzl board None).

The library is built for the platform in opt mode (cortex_m_test's transition); the test passes when
every object in it is tagged with the core's CPU name (arm-none-eabi-readelf -A), which proves the
core's flags reached every compile. It runs nothing: there is no emulator for the core.
"""

load("//toolchains/simulators:defs.bzl", "firmware_transition")

def _shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"

def _cortex_m_build_only_test_impl(ctx):
    # Every static library the library links, its dependencies' included.
    archives = []
    for linker_input in ctx.attr.library[0][CcInfo].linking_context.linker_inputs.to_list():
        for library in linker_input.libraries:
            archive = library.static_library or library.pic_static_library
            if archive:
                archives.append(archive)
    if not archives:
        fail("cortex_m_build_only_test {}: {} links no static library".format(ctx.label, ctx.attr.library[0].label))
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = """#!/usr/bin/env bash
set -uo pipefail
expected={expected}
tags="$(arm-none-eabi-readelf -A {archives} | grep 'Tag_CPU_name:')"
count="$(printf '%s\\n' "$tags" | grep -c .)"
others="$(printf '%s\\n' "$tags" | grep -vF "\\"$expected\\"")"
echo "helia: $count objects built; CPU names other than $expected: ${{others:-none}}"
[ "$count" -gt 0 ] && [ -z "$others" ] || {{ echo "helia: FAIL: not every object is built for $expected"; exit 1; }}
echo "helia: PASS: built for $expected (build only: no emulator runs it)"
""".format(
            expected = _shell_quote(ctx.attr.cpu_name),
            archives = " ".join([_shell_quote(f.short_path) for f in archives]),
        ),
    )
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = archives))]

cortex_m_build_only_test = rule(
    implementation = _cortex_m_build_only_test_impl,
    test = True,
    attrs = {
        "library": attr.label(
            mandatory = True,
            cfg = firmware_transition,
            providers = [CcInfo],
            doc = "A cc_library built for `platform`; the static libraries it links are checked.",
        ),
        "platform": attr.label(mandatory = True, doc = "The platform of the core, e.g. //toolchains/platforms:cortex_m85."),
        "cpu_name": attr.string(mandatory = True, doc = "The Tag_CPU_name every object must carry, e.g. cortex-m85."),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    doc = "Builds a library for a core no emulator runs and checks every object names the core.",
)
