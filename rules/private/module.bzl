# SPDX-License-Identifier: Apache-2.0
"""helia_aot_module: a .tflite model compiled into a C module, usable as a cc dependency."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain", "use_cpp_toolchain")
load(":providers.bzl", "HeliaKernelLibraryInfo", "HeliaModuleInfo")
load(":targets.bzl", "DEFAULT_TARGET_FOR_CORE", "PLATFORM_CORE_ATTRS", "TARGET_CORES", "platform_core")

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"

# The same rules as helia-aot's own (helia_aot/config/options.py check_prefix, targets.py names), checked
# here so that a bad attribute fails analysis instead of the conversion action.
_C_KEYWORDS = [
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "_Bool", "_Complex", "_Imaginary",
]
_MAX_PREFIX = 40

def _prefix_problem(prefix):
    """Why `prefix` cannot name the module's C symbols, or None."""
    if not prefix or prefix[0] not in _LETTERS + "_":
        return "it does not start with a letter or underscore"
    for c in prefix.elems():
        if c not in _LETTERS + _DIGITS + "_":
            return "it contains '{}'".format(c)
    if prefix in _C_KEYWORDS:
        return "it is a C keyword"
    if len(prefix) > _MAX_PREFIX:
        return "it is {} characters long (at most {})".format(len(prefix), _MAX_PREFIX)
    return None

def _check_prefix(ctx, prefix):
    problem = _prefix_problem(prefix)
    if problem == None:
        return
    if ctx.attr.prefix:
        fail(("helia_aot_module {label}: attribute prefix '{prefix}' is not a C identifier ({problem}). " +
              "Set prefix to letters, digits and underscores, starting with a letter or underscore.").format(
            label = ctx.label,
            prefix = prefix,
            problem = problem,
        ))
    suggested = "".join([c if c in _LETTERS + _DIGITS else "_" for c in prefix.elems()])
    suggested = suggested.lstrip(_DIGITS)[:_MAX_PREFIX] or "model"
    fail(("helia_aot_module {label}: the default prefix, the target name '{prefix}', is not a C identifier " +
          "({problem}). Set the attribute prefix, e.g. prefix = \"{suggested}\".").format(
        label = ctx.label,
        prefix = prefix,
        problem = problem,
        suggested = suggested,
    ))

def _check_target_name(ctx, target):
    for c in target.elems():
        if c not in _LETTERS + _DIGITS + "_.+-":
            fail("helia_aot_module {}: attribute target '{}' is not a target name (it contains '{}').".format(
                ctx.label,
                target,
                c,
            ))
    if target not in TARGET_CORES and not ctx.file.config:
        fail(("helia_aot_module {label}: attribute target '{target}' is not a built-in target ({known}), " +
              "and there is no config to define it. Use one of those, or define it in a config file " +
              "(target.file or target.custom) given as the attribute config.").format(
            label = ctx.label,
            target = target,
            known = ", ".join(sorted(TARGET_CORES.keys())),
        ))

def _resolve_target(ctx):
    core = platform_core(ctx)
    if ctx.attr.target:
        _check_target_name(ctx, ctx.attr.target)
    if not ctx.attr.target and core not in DEFAULT_TARGET_FOR_CORE:
        fail(("helia_aot_module {label}: no built-in target runs on {core}, the core of this build's " +
              "platform. Set target, with a config that defines it (target.custom or target.file).").format(
            label = ctx.label,
            core = core,
        ))
    target = ctx.attr.target or DEFAULT_TARGET_FOR_CORE[core]
    expected_core = TARGET_CORES.get(target)
    if expected_core != None and expected_core != core:
        fail(("helia_aot_module {label}: target '{target}' runs on {expected}, but this build is for a " +
              "{core} platform. Set target to one for {core} ({suggested}), leave it unset, or build " +
              "with a {expected} platform.").format(
            label = ctx.label,
            target = target,
            expected = expected_core,
            core = core,
            suggested = DEFAULT_TARGET_FOR_CORE.get(core, "one defined in a config"),
        ))
    return target

def _helia_aot_module_impl(ctx):
    prefix = ctx.attr.prefix or ctx.label.name
    _check_prefix(ctx, prefix)
    target = _resolve_target(ctx)
    include_dir = ctx.actions.declare_directory(ctx.label.name + "/include")
    src_dir = ctx.actions.declare_directory(ctx.label.name + "/src")
    plan = ctx.actions.declare_file("{}/{}_plan.json".format(ctx.label.name, prefix))
    report = ctx.actions.declare_file("{}/{}_report.json".format(ctx.label.name, prefix))
    report_html = ctx.actions.declare_file("{}/{}_report.html".format(ctx.label.name, prefix))

    # Plan for the library the module links; a cc target without the provider is taken as ns-cmsis-nn.
    kernel_library = "ns_cmsis_nn"
    if HeliaKernelLibraryInfo in ctx.attr.kernels:
        kernel_library = ctx.attr.kernels[HeliaKernelLibraryInfo].name

    args = ctx.actions.args()
    args.add("module")
    args.add("--model", ctx.file.model)
    args.add("--prefix", prefix)
    args.add("--target", target)
    args.add("--kernel-library", kernel_library)
    if ctx.file.config:
        args.add("--config", ctx.file.config)
    if ctx.file.plan:
        args.add("--input-plan", ctx.file.plan)
    args.add("--include-dir", include_dir.path)
    args.add("--src-dir", src_dir.path)
    args.add("--plan", plan)
    args.add("--report", report)
    args.add("--report-html", report_html)
    ctx.actions.run(
        executable = ctx.executable._compiler,
        arguments = [args],
        inputs = [ctx.file.model] + [f for f in (ctx.file.config, ctx.file.plan) if f],
        outputs = [include_dir, src_dir, plan, report, report_html],
        mnemonic = "HeliaAotConvert",
        progress_message = "helia-aot: converting %{label} for " + target,
    )

    cc_toolchain = find_cpp_toolchain(ctx)
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    kernels = ctx.attr.kernels[CcInfo]

    # Our kernel families on the platforms whose cores they serve (each empty elsewhere): the module may
    # call helia_mve_* entries on MVE cores, helia_dsp_* ones on DSP cores (helia_aot/library/own_kernels.py).
    own = [target[CcInfo] for target in ctx.attr._own_kernels]
    compilation_context, compilation_outputs = cc_common.compile(
        name = ctx.label.name,
        actions = ctx.actions,
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        srcs = [src_dir],
        public_hdrs = [include_dir],
        includes = [include_dir.path],
        compilation_contexts = [kernels.compilation_context] + [k.compilation_context for k in own],
        user_compile_flags = ["-std=c99", "-Wall", "-Wextra", "-Werror"] + ctx.attr.copts,
    )
    linking_context, _ = cc_common.create_linking_context_from_compilation_outputs(
        name = ctx.label.name,
        actions = ctx.actions,
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        compilation_outputs = compilation_outputs,
        linking_contexts = [k.linking_context for k in own] + [kernels.linking_context],
        disallow_dynamic_library = True,
    )
    module_cc_info = CcInfo(compilation_context = compilation_context, linking_context = linking_context)
    return [
        # The objects too, so that `bazel build` proves the generated C compiles warning-free.
        DefaultInfo(files = depset(
            [include_dir, src_dir, plan, report, report_html] +
            compilation_outputs.objects + compilation_outputs.pic_objects,
        )),
        cc_common.merge_cc_infos(direct_cc_infos = [module_cc_info], cc_infos = own + [kernels]),
        OutputGroupInfo(
            plan = depset([plan]),
            report = depset([report]),
            # The same plan and report as one self-contained page (tables and the arena's picture).
            report_html = depset([report_html]),
            sources = depset([include_dir, src_dir]),
        ),
        HeliaModuleInfo(
            prefix = prefix,
            target = target,
            kernel_library = kernel_library,
            model = ctx.file.model,
            config = ctx.file.config,
            input_plan = ctx.file.plan,
            plan = plan,
            report = report,
            report_html = report_html,
        ),
    ]

helia_aot_module = rule(
    implementation = _helia_aot_module_impl,
    doc = """Compiles a LiteRT model into a C module with helia-aot, as one hermetic action.

The target is a cc dependency: list it in the `deps` of any cc_library or cc_binary and include
`<prefix>_model.h`. It carries the kernel library chosen by `//kernels:backend`. The output groups
`plan`, `report` and `report_html` hold `<prefix>_plan.json`, `<prefix>_report.json` and
`<prefix>_report.html`.""",
    attrs = dict({
        "model": attr.label(
            mandatory = True,
            allow_single_file = [".tflite"],
            doc = "The LiteRT flatbuffer to compile.",
        ),
        "prefix": attr.string(
            doc = "C symbol and file prefix of the module (a C identifier). Defaults to the target name.",
        ),
        "target": attr.string(
            doc = "helia-aot target (see `helia-aot targets`), e.g. corstone300, apollo510_evb, " +
                  "apollo4p_evb, host. Defaults from the platform being built: corstone300 for the " +
                  "Cortex-M55 platform, apollo4p_evb for Cortex-M4, host otherwise. A target whose " +
                  "core differs from the platform's is an analysis error.",
        ),
        "config": attr.label(
            allow_single_file = [".yaml", ".yml"],
            doc = "Optional helia-aot YAML configuration (memory, optimization, operators, ... sections).",
        ),
        "plan": attr.label(
            allow_single_file = [".json"],
            doc = "Optional <prefix>_plan.json to convert by, as optimization.plan: its schedule is " +
                  "applied, and every other section must describe this conversion (model, target, " +
                  "operators, constants), else the action fails naming the first field that differs. " +
                  "Overrides the config's optimization.plan.",
        ),
        "kernels": attr.label(
            default = "//kernels",
            providers = [CcInfo],
            doc = "The kernel library the module calls, and plans entries and scratch for. The default " +
                  "follows the build setting //kernels:backend (portable or ns_cmsis_nn); a cc target " +
                  "without HeliaKernelLibraryInfo is planned as ns-cmsis-nn.",
        ),
        "copts": attr.string_list(
            doc = "Extra C compiler flags for the generated sources.",
        ),
        "_own_kernels": attr.label_list(
            default = ["//kernels/helium:helium_if_mve", "//kernels/dsp:dsp_if_dsp"],
            providers = [CcInfo],
        ),
        "_compiler": attr.label(
            default = "//rules/private:helia_action",
            executable = True,
            cfg = "exec",
        ),
    }, **PLATFORM_CORE_ATTRS),
    fragments = ["cpp"],
    toolchains = use_cpp_toolchain(),
)
