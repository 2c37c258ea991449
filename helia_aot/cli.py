# SPDX-License-Identifier: Apache-2.0
"""Command line: `helia-aot convert MODEL -o OUTDIR ...`, `helia-aot targets`, `helia-aot operators`."""

from __future__ import annotations

import os
import sys
import traceback

from absl import app, flags, logging

FLAGS = flags.FLAGS
flags.DEFINE_string("output", None, "Output directory of the generated module (convert).", short_name="o")
flags.DEFINE_string("prefix", None, "C symbol prefix of the module (default: module.prefix or 'model').")
flags.DEFINE_string("target", None, "Target name (default: target.name or 'host'); see `helia-aot targets`.")
flags.DEFINE_string("config", None, "YAML configuration file; command-line flags override it.")
flags.DEFINE_enum("kernel_library", None, ["ns_cmsis_nn", "portable"],
                  "Kernel library the module links (default: module.kernel_library or ns_cmsis_nn); scratch "
                  "sizes and entries follow it.")
flags.DEFINE_bool("test", False, "Also write golden data and a C test harness under OUTDIR/test.")
flags.DEFINE_enum("reference", None, ["litert", "tflm"],
                  "Golden reference for --test (default: test.reference or litert, which falls back to tflm, "
                  "TensorFlow Lite Micro, when LiteRT cannot load the model).")
# An empty value is a slip (an unset shell variable): refuse it while parsing, naming the flag.
for _name, _what in (("output", "an output directory"), ("target", "a target name"),
                     ("config", "the path of a YAML file")):
    flags.register_validator(_name, lambda value: value is None or value.strip() != "",
                             message=f"--{_name} needs {_what}, got an empty value")

_USAGE = ("usage: helia-aot convert MODEL -o OUTDIR [--prefix P] [--target NAME] [--kernel_library L] "
          "[--config FILE.yaml] [--test [--reference litert|tflm]]\n"
          "       helia-aot targets [--config FILE.yaml]\n"
          "       helia-aot operators")


# Exit statuses: 2 for what the input caused (a HeliaError, a usage error), 3 for a bug in helia-aot.
EXIT_INPUT = 2
EXIT_INTERNAL = 3


def _fail(kind: str, message: str, status: int = EXIT_INPUT) -> None:
    print(f"error: {kind}: {message}", file=sys.stderr)
    sys.exit(status)


def _internal_error(exc: BaseException) -> None:
    """Any exception that is not a HeliaError is helia-aot's fault, never the input's: one line that
    says so (the traceback only with --verbosity=debug)."""
    from .version import __version__
    if _debug():
        traceback.print_exc()
    where = "" if _debug() else "; run again with --verbosity=debug for the traceback"
    _fail("InternalError", f"helia-aot {__version__} hit an unexpected {type(exc).__name__}. This is a bug in "
                           f"helia-aot, not in your input: please report it to the helia-aot maintainers with the "
                           f"model, the command line and the traceback{where}", EXIT_INTERNAL)


_VERBOSITY_NAMES = {"debug": "1", "info": "0", "warning": "-1", "error": "-2", "fatal": "-3"}


def _named_verbosity(arg: str) -> str:
    """absl's --verbosity takes integers; also accept the level names (--verbosity=debug)."""
    for flag in ("--verbosity=", "-v="):
        if arg.startswith(flag) and arg[len(flag):].lower() in _VERBOSITY_NAMES:
            return flag + _VERBOSITY_NAMES[arg[len(flag):].lower()]
    return arg


def _parse(argv: list[str]) -> list[str]:
    argv = [argv[0]] + [_named_verbosity(a) for a in argv[1:]]
    try:
        return FLAGS(argv)
    except flags.Error as exc:
        _fail("UsageError", f"{str(exc).rstrip('.')}. Run `helia-aot --help` for the flags")
    return []


def _debug() -> bool:
    return logging.get_verbosity() >= logging.DEBUG


def _cmd_targets(config_path) -> int:
    from . import config as config_mod
    from .options import custom_targets, resolve_target
    from .targets import builtin_targets
    cfg = config_mod.load(config_path)
    # The same resolution as convert: custom targets from the configuration, memory overrides applied.
    targets = [resolve_target(cfg, t.name) for t in builtin_targets()]
    targets += [resolve_target(cfg, t.name) for t in custom_targets(cfg)]
    for t in targets:
        caps = ", ".join(t.capabilities) or "none"
        mems = ", ".join(f"{m.name} {m.size // 1024} KiB" for m in t.memories)
        print(f"{t.name:16} cpu={t.cpu:12} capabilities=[{caps}] kernels={t.kernel_build} memories=[{mems}]"
              f" ({t.source})")
    return 0


def _cmd_operators() -> int:
    """The catalog: every operator, its variants, their operands' rules and kernel entries."""
    from . import ops
    for op_type, variant in ops.catalog():
        print(f"{op_type} [{variant.name}]")
        for direction, operands in (("in", variant.inputs), ("out", variant.outputs)):
            for operand in operands:
                rules = ", ".join(operand.rules())
                print(f"    {direction:3} {operand.role:16} {'|'.join(operand.dtypes)}"
                      + (f"  ({rules})" if rules else ""))
        print(f"    calls {', '.join(variant.entries) or 'inline C' if variant.template else 'nothing (alias)'}")
        if variant.requires_fp16:
            print("    needs native FP16: a target with the fp16 capability (MVE-FP), or host")
        if variant.switches:
            print(f"    needs ns-cmsis-nn built with {', '.join(variant.switches)}")
        for note in variant.notes:
            print(f"    rule  {note}")
    return 0


def _cmd_convert(args: list[str]) -> int:
    from .compiler import convert
    if len(args) != 1:
        _fail("UsageError", f"convert takes exactly one MODEL argument, got {len(args)}. {_USAGE.splitlines()[0]}")
    if not FLAGS.output:
        _fail("UsageError", "convert needs -o OUTDIR. " + _USAGE.splitlines()[0])
    result = convert(args[0], FLAGS.output, prefix=FLAGS.prefix, target=FLAGS.target,
                     kernel_library=FLAGS.kernel_library, config=FLAGS.config, with_test_data=FLAGS.test,
                     reference=FLAGS.reference)
    mem = result.report["memory"]
    print(f"wrote {result.output_dir} (prefix {result.prefix}, target {result.plan['platform']['name']}, "
          f"kernels {result.plan['kernel_library']['name']})")
    print(f"  scratch arena {mem['scratch_arena_bytes']} B (lower bound {mem['lower_bound_bytes']} B, "
          f"ratio {mem['ratio']}), constants {mem['constant_bytes']} B, {result.report['total_macs']} MACs, "
          f"{result.seconds:.3f} s")
    for w in result.report["warnings"]:
        logging.warning(w)
    return 0


def main(argv: list[str]) -> int:
    args = argv[1:]
    if not args or args[0] in ("help",):
        print(_USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    from .errors import HeliaError
    try:
        if command == "convert":
            return _cmd_convert(rest)
        if command == "targets":
            return _cmd_targets(FLAGS.config)
        if command == "operators":
            return _cmd_operators()
        _fail("UsageError", f"unknown command {command!r}. {_USAGE.splitlines()[0]}")
    except HeliaError as exc:
        if _debug():
            traceback.print_exc()
        _fail(type(exc).__name__, str(exc))
    except KeyboardInterrupt:
        _fail("Interrupted", "conversion stopped by the user. Run it again")
    except BrokenPipeError:
        # The reader went away (`helia-aot operators | head`): stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - every other exception is a bug, reported as one
        _internal_error(exc)
    return 0


def run() -> None:
    """Console-script entry point."""
    app.run(main, flags_parser=_parse)


if __name__ == "__main__":
    run()
