# SPDX-License-Identifier: Apache-2.0
"""helia_aot_golden_test: a module's outputs against LiteRT's or TFLM's, on a simulator or the host."""

load("//toolchains/arm_gnu:cores.bzl", "BOARDS", "CORES")
load("//toolchains/simulators:defs.bzl", "cortex_m_test")
load("//toolchains/simulators:sanitizers.bzl", "HOST_SANITIZERS")
load(":providers.bzl", "HeliaModuleInfo")

# The ranges helia-aot accepts for test.num_samples, test.tolerance, test.seed and test.iterations
# (helia_aot/config/file.py); Starlark integers stop at 2^31 - 1 anyway.
_MAX_SAMPLES = 10000
_MAX_ITERATIONS = 10000

def _check_ranges(ctx):
    for name, value, low, high in (
        ("num_samples", ctx.attr.num_samples, 1, _MAX_SAMPLES),
        ("tolerance", ctx.attr.tolerance, 0, None),
        ("seed", ctx.attr.seed, 0, None),
        ("iterations", ctx.attr.iterations, 1, _MAX_ITERATIONS),
    ):
        if value < low or (high != None and value > high):
            fail("helia_aot_golden_test {}: attribute {} is {}; it must be {}.".format(
                ctx.label,
                name,
                value,
                "from {} to {}".format(low, high) if high != None else "at least {}".format(low),
            ))

def _helia_golden_data_impl(ctx):
    _check_ranges(ctx)
    module = ctx.attr.module[HeliaModuleInfo]
    test_data = ctx.actions.declare_file("{}/{}_test_data.c".format(ctx.label.name, module.prefix))
    test_main = ctx.actions.declare_file("{}/{}_test_main.c".format(ctx.label.name, module.prefix))
    args = ctx.actions.args()
    args.add("golden")
    args.add("--model", module.model)
    args.add("--prefix", module.prefix)
    args.add("--target", module.target)
    args.add("--kernel-library", module.kernel_library)
    if module.config:
        args.add("--config", module.config)
    if module.input_plan:
        args.add("--input-plan", module.input_plan)
    args.add("--num-samples", str(ctx.attr.num_samples))
    args.add("--seed", str(ctx.attr.seed))
    args.add("--tolerance", str(ctx.attr.tolerance))
    args.add("--iterations", str(ctx.attr.iterations))
    if ctx.attr.reference:
        args.add("--reference", ctx.attr.reference)
    args.add("--test-data", test_data)
    args.add("--test-main", test_main)
    ctx.actions.run(
        executable = ctx.executable._golden,
        arguments = [args],
        inputs = [module.model] + [f for f in (module.config, module.input_plan) if f],
        outputs = [test_data, test_main],
        mnemonic = "HeliaAotGolden",
        progress_message = "helia-aot: golden data for %{label}",
    )
    return [DefaultInfo(files = depset([test_data, test_main]))]

helia_golden_data = rule(
    implementation = _helia_golden_data_impl,
    doc = "Seeded golden inputs, reference outputs (LiteRT or TFLM) and the C harness for a helia_aot_module.",
    attrs = {
        "module": attr.label(mandatory = True, providers = [HeliaModuleInfo]),
        "num_samples": attr.int(default = 20),
        "seed": attr.int(default = 0),
        "tolerance": attr.int(default = 1),
        "iterations": attr.int(default = 1),
        # "" takes test.reference from the module's config (default litert).
        "reference": attr.string(default = "", values = ["", "litert", "tflm"]),
        "_golden": attr.label(
            default = "//rules/private:helia_action",
            executable = True,
            cfg = "exec",
        ),
    },
)

def helia_aot_golden_test(
        name,
        module,
        num_samples = 20,
        seed = 0,
        tolerance = 1,
        simulator = "qemu",
        iterations = 1,
        reference = None,
        core = None,
        board = None,
        **kwargs):
    """Checks a helia_aot_module against LiteRT's or TensorFlow Lite Micro's reference kernels.

    A build action draws `num_samples` seeded inputs and runs the reference on them;
    a harness runs the module on the same inputs and passes only when every output is within
    `tolerance` codes. The log prints, per output, max |diff| and the number of codes off; a
    mismatch names the output index and the first differing element. On a simulator the log also
    gives the instructions of the first model_run (sample 0) and of a warm one (sample 1), counted
    under QEMU -icount by the SysTick counter the benchmark uses (toolchains/corstone300/
    instruction_counter.h); the firmware, module and kernels are compiled in opt mode (-O2, whatever
    the caller's --compilation_mode: cortex_m_test's transition), and each count line says so.

    Args:
      name: the test's name.
      module: a helia_aot_module target.
      num_samples: how many random inputs to compare on.
      seed: seed of the random inputs.
      tolerance: the largest accepted difference, in output quantization codes.
      simulator: "qemu" (QEMU mps3-an547, Corstone-300), "fvp" (Arm's FVP_Corstone_SSE-300, see
        HELIA_FVP) or "host" (host build under ASan and UBSan).
      iterations: invocations per sample. Each sample is a sequence run in one LiteRT interpreter,
        so state (variable tensors, resource variables) carries from one invocation to the next;
        every invocation's outputs are compared. A stateful module is reset before each sequence,
        and after a last reset its first invocation must repeat exactly.
      reference: where the golden outputs come from: "litert" (LiteRT's reference kernels; a model
        LiteRT cannot load, such as TFLM's person_detect, falls back to TFLM and the action's report
        says so) or "tflm" (TensorFlow Lite Micro's interpreter, whose kernels round as ns-cmsis-nn
        does, so int8 models match it bit for bit). Default: the config's test.reference, else
        "litert".
      core: on a simulator, the core the firmware is built for: a key of toolchains/arm_gnu/cores.bzl's
        CORES (cortex_m3, cortex_m33, ...), built for //toolchains/platforms:<core>. Default: the
        Cortex-M55 of Corstone-300 (platform corstone300).
      board: with core, the QEMU board that runs it (a key of cores.bzl's BOARDS); default the core's
        board.
      **kwargs: passed to the test rule (size, tags, timeout, ...).
    """
    helia_golden_data(
        name = name + "_golden",
        module = module,
        num_samples = num_samples,
        seed = seed,
        tolerance = tolerance,
        iterations = iterations,
        reference = reference or "",
        testonly = True,
    )
    if simulator == "host":
        native.cc_test(
            name = name,
            srcs = [":" + name + "_golden"],
            copts = HOST_SANITIZERS + ["-std=c99", "-Wall", "-Wextra", "-Werror"],
            linkopts = HOST_SANITIZERS,
            target_compatible_with = ["@platforms//os:linux"],
            deps = [module],
            **kwargs
        )
    elif simulator in ("qemu", "fvp") and core:
        if core not in CORES:
            fail("helia_aot_golden_test {}: core '{}' is not one of toolchains/arm_gnu/cores.bzl's: {}".format(
                name,
                core,
                ", ".join(CORES),
            ))
        board = board or CORES[core]["board"]
        if board not in BOARDS or simulator != "qemu":
            fail("helia_aot_golden_test {}: core {} runs on no QEMU board here (board '{}'); QEMU runs {}".format(
                name,
                core,
                board,
                ", ".join([c for c in CORES if CORES[c]["board"]]),
            ))
        native.cc_binary(
            name = name + "_firmware",
            srcs = [":" + name + "_golden"],
            copts = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-include", "golden_profile.h"],
            target_compatible_with = [Label("//toolchains/constraints:" + core)],
            testonly = True,
            deps = [module, Label("//toolchains/boards:" + board)],
        )
        cortex_m_test(
            name = name,
            firmware = ":" + name + "_firmware",
            platform = Label("//toolchains/platforms:" + core),
            qemu_machine = BOARDS[board]["qemu_machine"],
            expected_output = ["PASS: {} samples".format(num_samples), "helia: model_run instructions: "],
            **kwargs
        )
    elif simulator in ("qemu", "fvp"):
        native.cc_binary(
            name = name + "_firmware",
            srcs = [":" + name + "_golden"],
            copts = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-include", "golden_profile.h"],
            target_compatible_with = [Label("//toolchains/constraints:cortex_m55")],
            testonly = True,
            deps = [module, Label("//toolchains/corstone300:golden_profile")],
        )
        cortex_m_test(
            name = name,
            firmware = ":" + name + "_firmware",
            simulator = simulator,
            # The first model_run's count (golden_profile.h) must be in the log beside the verdict.
            expected_output = ["PASS: {} samples".format(num_samples), "helia: model_run instructions: "],
            **kwargs
        )
    else:
        fail("helia_aot_golden_test {}: simulator must be qemu, fvp or host, not '{}'".format(name, simulator))
