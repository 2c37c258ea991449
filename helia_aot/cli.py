# SPDX-License-Identifier: Apache-2.0
"""Command line: `helia-aot convert MODEL -o OUTDIR ...` and `helia-aot targets` (absl flags)."""

from __future__ import annotations

import sys
import traceback

from absl import app, flags, logging

FLAGS = flags.FLAGS
flags.DEFINE_string("output", None, "Output directory of the generated module (convert).", short_name="o")
flags.DEFINE_string("prefix", None, "C symbol prefix of the module (default: module.prefix or 'model').")
flags.DEFINE_string("target", None, "Target name (default: target.name or 'host'); see `helia-aot targets`.")
flags.DEFINE_string("config", None, "YAML configuration file; command-line flags override it.")
flags.DEFINE_bool("test", False, "Also write LiteRT golden data and a C test harness under OUTDIR/test.")

_USAGE = ("usage: helia-aot convert MODEL -o OUTDIR [--prefix P] [--target NAME] [--config FILE.yaml] [--test]\n"
          "       helia-aot targets [--config FILE.yaml]")


def _fail(kind: str, message: str) -> None:
    print(f"error: {kind}: {message}", file=sys.stderr)
    sys.exit(2)


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
    from .targets import builtin_targets, load_custom_targets
    targets = builtin_targets()
    if config_path:
        cfg = config_mod.load(config_path)
        if cfg.values["target"].get("file"):
            targets += load_custom_targets(cfg.values["target"]["file"])
    for t in targets:
        caps = ", ".join(t.capabilities) or "none"
        mems = ", ".join(f"{m.name} {m.size // 1024} KiB" for m in t.memories)
        print(f"{t.name:16} cpu={t.cpu:12} capabilities=[{caps}] kernels={t.kernel_build} memories=[{mems}]"
              f" ({t.source})")
    return 0


def _cmd_convert(args: list[str]) -> int:
    from .compiler import convert
    if len(args) != 1:
        _fail("UsageError", f"convert takes exactly one MODEL argument, got {len(args)}. {_USAGE.splitlines()[0]}")
    if not FLAGS.output:
        _fail("UsageError", "convert needs -o OUTDIR. " + _USAGE.splitlines()[0])
    kwargs = {}
    if FLAGS.prefix is not None:
        kwargs["prefix"] = FLAGS.prefix
    config = FLAGS.config
    if FLAGS.target is not None:
        kwargs["target"] = FLAGS.target
        if FLAGS.target == "host":
            # "host" is also the API default; make an explicit flag win over the config file.
            from . import config as config_mod
            cfg = config_mod.load(config)
            cfg.values["target"]["name"] = "host"
            config = cfg
    if FLAGS.prefix == "model":
        from . import config as config_mod
        cfg = config if isinstance(config, config_mod.Config) else config_mod.load(config)
        cfg.values["module"]["prefix"] = "model"
        config = cfg
    result = convert(args[0], FLAGS.output, config=config, with_test_data=FLAGS.test, **kwargs)
    mem = result.report["memory"]
    print(f"wrote {result.output_dir} (prefix {result.prefix}, target {result.plan['platform']['name']})")
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
        _fail("UsageError", f"unknown command {command!r}. {_USAGE.splitlines()[0]}")
    except HeliaError as exc:
        if _debug():
            traceback.print_exc()
        _fail(type(exc).__name__, str(exc))
    except KeyboardInterrupt:
        _fail("Interrupted", "conversion stopped by the user. Run it again")
    return 0


def run() -> None:
    """Console-script entry point."""
    app.run(main, flags_parser=_parse)


if __name__ == "__main__":
    run()
