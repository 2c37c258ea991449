# SPDX-License-Identifier: Apache-2.0
"""cc_toolchain_config for the Arm GNU Toolchain (arm-none-eabi-gcc with picolibc).

One rule serves every Cortex-M core: the core-specific flags come in through `cpu_flags`, and the
flags are grouped by where they apply (compile, link), as Pigweed's pw_toolchain does.
"""

load("@rules_cc//cc:action_names.bzl", "ACTION_NAMES")
load(
    "@rules_cc//cc:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
)
load(":cores.bzl", "COMPILATION_MODE_FLAGS", "COMPILE_FLAGS", "LINK_FLAGS")

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

def _flags(actions, flags):
    return flag_set(actions = actions, flag_groups = [flag_group(flags = flags)])

def _arm_gnu_toolchain_config_impl(ctx):
    prefix = ctx.attr.tool_prefix
    tools = {
        "gcc": prefix + "gcc",
        "cpp": prefix + "cpp",
        "ar": prefix + "ar",
        "ld": prefix + "ld",
        "nm": prefix + "nm",
        "objcopy": prefix + "objcopy",
        "objdump": prefix + "objdump",
        "strip": prefix + "strip",
        "gcov": prefix + "gcov",
    }
    features = [
        feature(
            name = "cortex_m_target",
            enabled = True,
            flag_sets = [
                _flags(_COMPILE_ACTIONS + _LINK_ACTIONS, ctx.attr.cpu_flags),
                # cores.bzl: the flags the benchmark uses too.
                _flags(_COMPILE_ACTIONS, COMPILE_FLAGS + [
                    # Keep absolute system paths and build dates out of outputs (hermeticity).
                    "-no-canonical-prefixes",
                    "-fno-canonical-system-headers",
                    "-Wno-builtin-macro-redefined",
                    "-D__DATE__=\"redacted\"",
                    "-D__TIMESTAMP__=\"redacted\"",
                    "-D__TIME__=\"redacted\"",
                ]),
                # Semihosting carries stdout and exit() to the simulator (cores.bzl).
                _flags(_LINK_ACTIONS, LINK_FLAGS),
            ],
        ),
        # cores.bzl: each mode's optimization, and HELIA_OPTIMIZATION naming it in instruction counts.
        feature(name = "opt", flag_sets = [_flags(_COMPILE_ACTIONS, COMPILATION_MODE_FLAGS["opt"])]),
        feature(name = "dbg", flag_sets = [_flags(_COMPILE_ACTIONS, COMPILATION_MODE_FLAGS["dbg"])]),
        feature(name = "fastbuild", flag_sets = [_flags(_COMPILE_ACTIONS, COMPILATION_MODE_FLAGS["fastbuild"])]),
        feature(name = "supports_pic", enabled = False),
    ]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "arm-none-eabi-" + ctx.attr.core,
        host_system_name = "local",
        target_system_name = "arm-none-eabi",
        target_cpu = ctx.attr.core,
        target_libc = "picolibc",
        compiler = "gcc",
        abi_version = "eabi",
        abi_libc_version = "picolibc",
        tool_paths = [tool_path(name = name, path = path) for name, path in tools.items()],
        features = features,
        cxx_builtin_include_directories = ctx.attr.builtin_include_directories,
    )

arm_gnu_toolchain_config = rule(
    implementation = _arm_gnu_toolchain_config_impl,
    provides = [CcToolchainConfigInfo],
    attrs = {
        "core": attr.string(mandatory = True, doc = "Core name, e.g. cortex-m55; used in the toolchain identifier."),
        "cpu_flags": attr.string_list(
            mandatory = True,
            doc = "Core, FPU and float-ABI flags, added to every compile and link action.",
        ),
        "tool_prefix": attr.string(
            default = "/usr/bin/arm-none-eabi-",
            doc = "Path prefix of the toolchain's binaries.",
        ),
        "builtin_include_directories": attr.string_list(
            default = [
                "/usr/lib/gcc/arm-none-eabi",
                "/usr/lib/picolibc/arm-none-eabi/include",
                "/usr/arm-none-eabi/include",
                "/usr/include/newlib",
            ],
            doc = "System include directories the compiler searches under picolibc.specs.",
        ),
    },
    doc = "Configures an arm-none-eabi-gcc toolchain for one Cortex-M core.",
)
