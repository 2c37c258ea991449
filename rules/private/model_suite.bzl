# SPDX-License-Identifier: Apache-2.0
"""helia_aot_model_suite: many models, each a module with golden tests, in one call."""

load("@rules_python//python:defs.bzl", "py_test")
load(":golden_test.bzl", "helia_aot_golden_test")
load(":module.bzl", "helia_aot_module")
load(":providers.bzl", "HeliaModuleInfo")

# The per-model keys and their defaults ("model" is required).
_SETTINGS = {
    "model": None,
    "prefix": None,
    "target": None,
    "config": None,
    "tolerance": 0,
    "num_samples": 3,
    "seed": 0,
    "reference": "tflm",
    "tags": [],
}

def _suite_manifest_impl(ctx):
    entries = []
    for name, module in zip(ctx.attr.names, ctx.attr.modules):
        info = module[HeliaModuleInfo]
        entries.append({
            "name": name,
            "module": "//{}:{}".format(module.label.package, module.label.name),
            "tests": ["//{}:{}{}".format(ctx.label.package, name, suffix) for suffix in ("_golden", "_golden_host")],
            "prefix": info.prefix,
            "target": info.target,
            "kernel_library": info.kernel_library,
            "model": info.model.short_path,
            "plan": info.plan.short_path,
        })
    manifest = ctx.actions.declare_file(ctx.label.name + ".json")
    ctx.actions.write(manifest, json.encode_indent({"modules": entries}))
    files = [manifest] + [m[HeliaModuleInfo].plan for m in ctx.attr.modules] + [m[HeliaModuleInfo].model for m in ctx.attr.modules]
    return [DefaultInfo(files = depset([manifest]), runfiles = ctx.runfiles(files = files))]

_suite_manifest = rule(
    implementation = _suite_manifest_impl,
    doc = "A JSON list of a suite's modules (prefix, target, kernel library, model, plan, tests) with their files.",
    attrs = {
        "names": attr.string_list(doc = "The suite's model names, in the order of modules."),
        "modules": attr.label_list(providers = [HeliaModuleInfo], doc = "One helia_aot_module per name."),
    },
)

def helia_aot_model_suite(name, models, **kwargs):
    """Compiles each model into a module and checks it with golden tests on QEMU and on the host.

    For each entry `m` of `models` this makes:
      - `<m>_module`: a helia_aot_module (C prefix `<m>` unless given);
      - `<m>_golden`: a helia_aot_golden_test on QEMU mps3-an547 (Corstone-300; with the log's
        instruction count of model_run);
      - `<m>_golden_host`: the same golden test on the host under ASan and UBSan.
    and for the suite:
      - `<name>`: a test_suite of every golden test;
      - `<name>_summary`: a test that checks each module is what the suite asked for (its plan names
        the model file by sha256, the target, the kernel library and the prefix) and prints one line
        per model with its module and tests.

    Example:

        helia_aot_model_suite(
            name = "suite",
            models = {
                "kws": {"model": "kws.tflite", "tolerance": 0, "reference": "tflm"},
                "vww": {"model": "@my_models//:vww.tflite", "num_samples": 3},
            },
        )

    Args:
      name: the name of the test_suite; `<name>_summary` and `<name>_manifest` are made too.
      models: model name (a C identifier: it names the targets and the default prefix) -> a dict of
        settings:
          - model (required): label of the .tflite file.
          - prefix: C prefix of the module; default the model name.
          - target: a helia-aot target (e.g. "corstone300"); default from the platform.
          - config: a helia-aot YAML config file; default none.
          - tolerance: largest accepted difference in output codes; default 0 (int8 models match
            TFLM bit for bit, see README "Golden references").
          - num_samples: random inputs per golden test; default 3 (small: a suite runs many).
          - seed: seed of the random inputs; default 0.
          - reference: "tflm" (default) or "litert".
          - tags: tags of the model's tests (e.g. the skip reason when the model may be missing).
      **kwargs: passed to every test (size, timeout, ...).
    """
    tests = []
    names = []
    all_tags = []
    for model_name, settings in models.items():
        unknown = [key for key in settings if key not in _SETTINGS]
        if unknown:
            fail("helia_aot_model_suite {}: model {} has unknown settings {}; known: {}".format(
                name,
                model_name,
                ", ".join(unknown),
                ", ".join(_SETTINGS),
            ))
        if "model" not in settings:
            fail("helia_aot_model_suite {}: model {} has no 'model' (the .tflite label).".format(name, model_name))
        setting = dict(_SETTINGS)
        setting.update(settings)
        helia_aot_module(
            name = model_name + "_module",
            model = setting["model"],
            prefix = setting["prefix"] or model_name,
            target = setting["target"],
            config = setting["config"],
            tags = setting["tags"],
        )
        for suffix, simulator in (("_golden", "qemu"), ("_golden_host", "host")):
            helia_aot_golden_test(
                name = model_name + suffix,
                module = ":" + model_name + "_module",
                num_samples = setting["num_samples"],
                seed = setting["seed"],
                tolerance = setting["tolerance"],
                reference = setting["reference"],
                simulator = simulator,
                tags = setting["tags"],
                **kwargs
            )
            tests.append(":" + model_name + suffix)
        names.append(model_name)
        all_tags += [t for t in setting["tags"] if t not in all_tags]

    _suite_manifest(
        name = name + "_manifest",
        names = names,
        modules = [":" + n + "_module" for n in names],
        tags = all_tags,
        testonly = True,
    )
    py_test(
        name = name + "_summary",
        srcs = [Label("//rules/private:model_suite_summary.py")],
        main = Label("//rules/private:model_suite_summary.py"),
        args = ["$(rootpath :{}_manifest)".format(name)],
        data = [":" + name + "_manifest"],
        tags = all_tags,
        size = "small",
    )
    native.test_suite(
        name = name,
        # No tags: a test_suite's tags filter its tests.
        tests = tests + [":" + name + "_summary"],
    )
