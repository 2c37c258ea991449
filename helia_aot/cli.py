# SPDX-License-Identifier: Apache-2.0
"""Command line: `helia-aot convert MODEL -o OUTDIR ...`, `targets`, `operators`, `config`, `report`, `version`,
`help`.

The help pages are made from the flag definitions and helia_aot/config/file.py's table, never written twice.
"""

from __future__ import annotations

import os
import signal
import sys
import textwrap
import threading
import time
import traceback

from dataclasses import dataclass

from absl import app, flags, logging

from helia_aot import ops
from helia_aot.config import file as config_mod, spec
from helia_aot.config.options import custom_targets, resolve_target
from helia_aot.config.targets import builtin_targets
from helia_aot.errors import HeliaError, closest, operator_hint, rename_hint
from helia_aot.pipeline import convert
from helia_aot.record.report_html import regenerate
from helia_aot.version import __version__, ns_cmsis_nn_required_str

FLAGS = flags.FLAGS
flags.DEFINE_string("output", None, "Output directory of the generated module; replaced as a whole.", short_name="o")
flags.DEFINE_string("prefix", None, "C symbol and file prefix of the module (a C identifier).")
flags.DEFINE_string("target", None, "Target to compile for; `helia-aot targets` lists them.")
flags.DEFINE_string("config", None, "YAML configuration file; command-line flags override its keys.")
flags.DEFINE_enum("kernel_library", None, ["ns_cmsis_nn", "portable"],
                  "Kernel library the module links; scratch sizes and entries follow it.")
flags.DEFINE_enum("emit", None, ["c", "cmake"],
                  "What to write besides the plan and reports: c (headers and sources) or cmake (also a "
                  "CMakeLists.txt defining the <prefix>_model library target).")
flags.DEFINE_string("plan", None, "A <prefix>_plan.json to convert by (optimization.plan): its schedule is applied, "
                    "every other section must describe this conversion.")
flags.DEFINE_bool("test", False, "Also write LiteRT golden data and a C test harness under OUTDIR/test.")
flags.DEFINE_bool("schema", False, "Print every configuration key with its type, default and meaning.")
flags.DEFINE_enum("reference", None, ["litert", "tflm"],
                  "Golden reference for --test: LiteRT, which falls back to TensorFlow Lite Micro when LiteRT "
                  "cannot load the model, or TFLM.")
# Flags for the configuration keys most often changed per run; the others are set in --config.
_GOAL_TYPES, _GOALS, _, _GOAL_DOC = spec.SPEC["optimization"]["goal"]
flags.DEFINE_enum("goal", None, list(_GOALS), _GOAL_DOC[0].upper() + _GOAL_DOC[1:] + ".")
flags.DEFINE_integer("num_samples", None, "Random inputs in the golden data (--test).")
flags.DEFINE_integer("seed", None, "Seed of the golden inputs (--test).")
flags.DEFINE_integer("tolerance", None, "Largest |difference| in output codes the golden test accepts (--test).")
# An empty value is a slip (an unset shell variable): refuse it while parsing, naming the flag.
for _name, _what in (("output", "an output directory"), ("target", "a target name"),
                     ("config", "the path of a YAML file"), ("plan", "the path of a plan JSON file")):
    flags.register_validator(_name, lambda value: value is None or value.strip() != "",
                             message=f"--{_name} needs {_what}, got an empty value")

# The configuration key each flag overrides: its default is the key's (helia_aot/config/file.py's table).
_FLAG_KEYS = {"prefix": ("module", "prefix"), "target": ("target", "name"),
              "kernel_library": ("module", "kernel_library"), "emit": ("module", "type"),
              "reference": ("test", "reference"), "plan": ("optimization", "plan"),
              "goal": ("optimization", "goal"), "num_samples": ("test", "num_samples"), "seed": ("test", "seed"),
              "tolerance": ("test", "tolerance")}
_FLAG_VALUES = {"output": "OUTDIR", "prefix": "P", "target": "NAME", "config": "FILE.yaml", "kernel_library": "L",
                "emit": "KIND", "reference": "REF", "plan": "PLAN.json", "goal": "GOAL", "num_samples": "N",
                "seed": "N", "tolerance": "N"}


@dataclass(frozen=True)
class Command:
    name: str
    args: str  # positional arguments, as the usage line shows them
    summary: str
    flags: tuple[str, ...]
    details: str = ""


COMMANDS = {c.name: c for c in (
    Command("convert", "MODEL -o OUTDIR", "compile a LiteRT model (.tflite) into a C module",
            ("output", "prefix", "target", "config", "kernel_library", "emit", "goal", "test", "reference",
             "num_samples", "seed", "tolerance", "plan"),
            "Writes OUTDIR/include/<prefix>_model.h, OUTDIR/src/*.c, <prefix>_plan.json (every choice),\n"
            "<prefix>_report.json (why) and <prefix>_report.html (the same as a page with a memory picture);\n"
            "with --emit cmake also CMakeLists.txt, and with --test OUTDIR/test (golden data, C harness).\n"
            "-v info prints each stage with its time and every file written; on a terminal, a conversion\n"
            "taking over 2 s shows its progress on stderr."),
    Command("targets", "", "list the targets: CPU, capabilities, kernel build and memories", ("config",),
            "With --config, the configuration's custom targets and memory overrides are included."),
    Command("operators", "[TYPE...]", "list every operator, its precision variants, their rules and kernel entries",
            (), "With operator types (CONV_2D ADD), only those."),
    Command("config", "", "print the configuration (defaults merged with --config) or, with --schema, every key",
            ("config", "schema"),
            "Every key of the YAML file passed with --config; an unknown key is an error naming the allowed ones."),
    Command("report", "OUTDIR", "write OUTDIR/<prefix>_report.html again from the plan and report JSON", (),
            "OUTDIR is a directory `helia-aot convert` wrote."),
    Command("version", "", "print helia-aot's version and the ns-cmsis-nn API version its modules call", ()),
    Command("help", "[COMMAND]", "this help, or a command's", ()),
)}
_COMMON_FLAGS = ("verbosity", "help", "version")


def _default_text(name: str) -> str:
    if name in _FLAG_KEYS:
        section, key = _FLAG_KEYS[name]
        return f"default: {section}.{key} from --config, else {config_mod.defaults().get(section, key)!r}"
    if name == "verbosity":
        return "default: warning"  # absl's default is info, below its stderr threshold: shown as warning
    default = FLAGS[name].default if name in FLAGS else None
    if isinstance(default, bool):
        return "default: off" if not default else "default: on"
    return "required" if name == "output" else "default: none"


def _flag_lines(name: str) -> list[str]:
    if name == "help":
        return ["  -h, --help"] + _wrapped("show this help and exit (--helpfull: every absl flag too)")
    if name == "version":
        return ["  --version"] + _wrapped("print the version (as `helia-aot version`) and exit (default: off)")
    if name == "verbosity":
        return ["  -v LEVEL, --verbosity=LEVEL"] + _wrapped(
            f"{', '.join(_VERBOSITY_NAMES)}; info adds each stage's time and the files written, debug the "
            f"traceback of an error ({_default_text(name)})")
    flag = FLAGS[name]
    head = f"--{name}" if isinstance(flag.default, bool) or flag.flag_type() == "bool" else \
        f"--{name}={_FLAG_VALUES.get(name, 'VALUE')}"
    if flag.short_name:
        head = f"-{flag.short_name} {_FLAG_VALUES.get(name, 'VALUE')}, {head}"
    text = flag.help
    enum_values = getattr(flag.parser, "enum_values", None)
    if enum_values:
        text = text.split(": ", 1)[1] if text.startswith("<") else text  # absl prepends <a|b>: to enums
        text += f" One of: {', '.join(enum_values)}."
    return [f"  {head}"] + _wrapped(f"{text} ({_default_text(name)})")


def _wrapped(text: str) -> list[str]:
    return textwrap.wrap(text, 100, initial_indent="      ", subsequent_indent="      ")


def _usage_line(command: Command) -> str:
    opts = " [flags]" if command.flags else ""
    return f"helia-aot {command.name}{' ' + command.args if command.args else ''}{opts}"


def general_help() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: helia-aot COMMAND [ARGS] [flags]", "",
             "helia-aot compiles LiteRT (.tflite) models into C modules for Arm Cortex-M.", "", "commands:"]
    lines += [f"  {c.name:{width}}  {c.summary}" for c in COMMANDS.values()]
    for c in COMMANDS.values():
        lines += ["", f"{_usage_line(c)}" + (":" if c.flags else "")]
        for name in c.flags:
            lines += _flag_lines(name)
    lines += ["", "common flags (every command):"]
    for name in _COMMON_FLAGS:
        lines += _flag_lines(name)
    lines += ["", "`helia-aot COMMAND --help` lists a command's flags; `helia-aot config --schema` lists every",
              "configuration key (YAML, --config FILE.yaml), with its type and default. A flag's words may be",
              "joined by - or _ (--num-samples, --num_samples) and its value follow after = or a space.",
              "Errors end with exit code 2 (the input) or 3 (a bug in helia-aot), on one line."]
    return "\n".join(lines)


def command_help(command: Command) -> str:
    lines = [f"usage: {_usage_line(command)}", "", command.summary[0].upper() + command.summary[1:] + "."]
    if command.details:
        lines += command.details.splitlines()
    if command.flags:
        lines += ["", "flags:"]
        for name in command.flags:
            lines += _flag_lines(name)
    lines += ["", "common flags:"]
    for name in _COMMON_FLAGS:
        lines += _flag_lines(name)
    if any(name in _FLAG_KEYS or name == "config" for name in command.flags):
        lines += ["", "A flag overrides the configuration key it names; `helia-aot config --schema` lists every key."]
    return "\n".join(lines)


def schema_text() -> str:
    """Every configuration key, from helia_aot/config/spec.py's table."""
    lines = ["# helia-aot configuration (YAML). Every key is optional; command-line flags override it.",
             "# key: type [allowed values or range] = default, then what it means"]
    section = None
    for info in spec.schema_keys():
        listed = info.section in spec.LIST_SECTIONS
        if info.section != section:
            section = info.section
            lines.append(f"{section}:" + ("  # a list of entries, each with these keys (id or type required)"
                                          if listed else ""))
        kind = " or ".join(info.types)
        if info.allowed:
            kind += f" [{' | '.join(map(str, info.allowed))}]"
        if info.range:
            kind += f" [{info.range[0]}..{info.range[1]}]"
        default = "none" if info.default is None else repr(info.default)
        lines.append(f"  {info.key}: {kind}" + ("" if listed else f" = {default}"))
        lines += [line.replace("      ", "      # ", 1) for line in _wrapped(info.doc)]
    return "\n".join(lines)


_USAGE = "\n".join(("usage: " if i == 0 else "       ") + _usage_line(c)
                   for i, c in enumerate(c for c in COMMANDS.values() if c.name != "help"))


# Exit statuses: 2 for what the input caused (a HeliaError, a usage error), 3 for a bug in helia-aot.
EXIT_INPUT = 2
EXIT_INTERNAL = 3


def _fail(kind: str, message: str, status: int = EXIT_INPUT) -> None:
    print(f"error: {kind}: {message}", file=sys.stderr)
    sys.exit(status)


def _internal_error(exc: BaseException) -> None:
    """Any exception that is not a HeliaError is helia-aot's fault, never the input's: one line that
    says so (the traceback only with --verbosity=debug)."""
    if _debug():
        traceback.print_exc()
    where = "" if _debug() else "; run again with --verbosity=debug for the traceback"
    _fail("InternalError", f"helia-aot {__version__} hit an unexpected {type(exc).__name__}. This is a bug in "
                           f"helia-aot, not in your input: please report it to the helia-aot maintainers with the "
                           f"model, the command line and the traceback{where}", EXIT_INTERNAL)


_VERBOSITY_NAMES = {"debug": "1", "info": "0", "warning": "-1", "error": "-2", "fatal": "-3"}


def _normalized(args: list[str]) -> list[str]:
    """The arguments as absl parses them: a flag's words joined by _ (--num-samples is --num_samples), and
    a verbosity level by name (absl's --verbosity takes integers), after = or as the next argument."""
    out: list[str] = []
    for arg in args:
        if arg == "--":
            return out + args[len(out):]
        if arg.startswith("--") and len(arg) > 2:
            name, eq, value = arg[2:].partition("=")
            arg = "--" + name.replace("-", "_") + eq + value
        name, eq, value = arg.partition("=")
        if name in ("-v", "--verbosity") and eq and value.lower() in _VERBOSITY_NAMES:
            arg = f"{name}={_VERBOSITY_NAMES[value.lower()]}"
        elif out and out[-1] in ("-v", "--verbosity") and arg.lower() in _VERBOSITY_NAMES:
            arg = _VERBOSITY_NAMES[arg.lower()]
        out.append(arg)
    return out


def version_text() -> str:
    return f"helia-aot {__version__} (generated modules call the ns-cmsis-nn {ns_cmsis_nn_required_str()} API)"


_HELP_FLAGS = ("-h", "--help", "-help", "-?", "--helpshort")


def _command_of(argv: list[str]) -> Command | None:
    """The command the user typed first (before flags are parsed), if it is one."""
    for arg in argv[1:]:
        if not arg.startswith("-"):
            return COMMANDS.get(arg)
    return None


def _own_flags() -> list[str]:
    names = {name for c in COMMANDS.values() for name in c.flags}
    return sorted(names | {"verbosity", "help", "helpfull", "version"})


def _unknown_flag(exc: flags.UnrecognizedFlagError, command: Command | None) -> None:
    name = exc.flagname
    choices = list(command.flags) + list(_COMMON_FLAGS) if command else _own_flags()
    best = closest(name, choices)
    where = f"`helia-aot {command.name} --help`" if command else "`helia-aot --help`"
    hint = f"Did you mean --{best}? " if best else ""
    _fail("UsageError", f"unknown flag --{name}. {hint}Run {where} for the flags")


def _parse(argv: list[str]) -> list[str]:
    command = _command_of(argv)
    if any(arg in _HELP_FLAGS for arg in argv[1:]):
        print(command_help(command) if command and command.name != "help" else general_help())
        sys.exit(0)
    if "--version" in argv[1:]:
        print(version_text())
        sys.exit(0)
    argv = [argv[0]] + _normalized(argv[1:])
    try:
        return FLAGS(argv)
    except flags.UnrecognizedFlagError as exc:
        _unknown_flag(exc, command)
    except flags.IllegalFlagValueError as exc:
        if str(exc).startswith("flag --verbosity="):
            value = str(exc).split(":", 1)[0][len("flag --verbosity="):]
            _fail("UsageError", f"--verbosity {value!r} is not a level. Use one of {', '.join(_VERBOSITY_NAMES)}")
        _fail("UsageError", f"{str(exc).rstrip('.')}. Run `helia-aot --help` for the flags")
    except flags.Error as exc:
        _fail("UsageError", f"{str(exc).rstrip('.')}. Run `helia-aot --help` for the flags")
    return []


def _debug() -> bool:
    return logging.get_verbosity() >= logging.DEBUG


def _info() -> bool:
    """-v info or debug given (absl's default verbosity is info too, but prints nothing at it)."""
    return FLAGS["verbosity"].present and logging.get_verbosity() >= logging.INFO


def _cmd_targets(config_path) -> int:
    cfg = config_mod.load(config_path)
    # The same resolution as convert: custom targets from the configuration, memory overrides applied.
    targets = [resolve_target(cfg, t.name) for t in builtin_targets()]
    targets += [resolve_target(cfg, t.name) for t in custom_targets(cfg)]
    for t in targets:
        print(_target_line(t))
    return 0


def _target_line(t) -> str:
    """One target: name, core, capabilities, kernel build, memories (size, read-only ones marked,
    where scratch, constants and persistent state go by default) and where its facts come from."""
    caps = ", ".join(t.capabilities) or "none"
    roles = {}
    for role, memory in (("scratch", t.scratch_memory), ("constants", t.constant_memory),
                         ("persistent", t.persistent_memory)):
        roles.setdefault(memory.lower(), []).append(role)

    def size(n: int) -> str:
        return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n / 1024:g} KiB"

    mems = ", ".join(f"{m.name} {size(m.size)}{'' if m.writable else ' ro'}"
                     + (f" <{'+'.join(roles[m.name.lower()])}>" if m.name.lower() in roles else "")
                     for m in t.memories)
    source = t.source + (f"; {t.citation}" if t.citation else "")
    return (f"{t.name:16} cpu={t.cpu:13} capabilities=[{caps}] kernels={t.kernel_build} memories=[{mems}]"
            f" ({source})")


def _operator_types(names: list[str]) -> set[str] | None:
    """The operator types `helia-aot operators NAME...` asks for (None: all); an unknown one is a usage
    error naming the close types."""
    if not names:
        return None
    supported = ops.supported_operators()
    by_upper = {name.upper(): name for name in supported}
    unknown = [name for name in names if name.upper() not in by_upper]
    if unknown:
        _fail("UsageError", f"{unknown[0]!r} is not an operator type helia-aot lowers. "
                            + operator_hint(unknown[0], supported, "Run `helia-aot operators` for the "
                                                                   f"{len(supported)} types it lowers."))
    return {by_upper[name.upper()] for name in names}


def _cmd_operators(names: list[str]) -> int:
    """The catalog: every operator (or those named), its variants, their operands' rules and kernel entries."""
    wanted = _operator_types(names)
    for op_type, variant in ops.catalog():
        if wanted is not None and op_type not in wanted:
            continue
        print(f"{op_type} [{variant.name}]")
        for direction, operands in (("in", variant.inputs), ("out", variant.outputs)):
            for operand in operands:
                rules = ", ".join(operand.rules())
                print(f"    {direction:3} {operand.role:16} {'|'.join(operand.dtypes)}"
                      + (f"  ({rules})" if rules else ""))
                for word, source in operand.rule_sources():
                    print(f"        {word}: from {source or 'no stated source'}")
        print(f"    calls {', '.join(variant.entries) or 'inline C' if variant.template else 'nothing (alias)'}")
        for entry, instead in variant.fallbacks:
            print(f"    where the kernel library has no {entry}: {instead or 'inline C'}")
        if variant.requires_fp16:
            print("    needs native FP16: a target with the fp16 capability (MVE-FP), or host")
        if variant.switches:
            print(f"    needs ns-cmsis-nn built with {', '.join(variant.switches)}")
        for rule in variant.rules:
            print(f"    rule  {rule.text}")
            print(f"          from {rule.source}")
        for note in variant.notes:
            print(f"    note  {note}")
    return 0


# A conversion still running after this many seconds shows its progress (on a terminal only).
PROGRESS_AFTER_S = 2.0


class _Progress:
    """Stage timings at -v info, and, on a terminal, one self-rewriting progress line on stderr once a
    conversion runs over PROGRESS_AFTER_S: the elapsed time and the stage that ended last. Writes
    nothing extra when stderr is not a terminal, so logs and pipes stay clean."""

    def __init__(self, model: str):
        self.model = model
        self.start = time.monotonic()
        self.last_stage = "started"
        self.shown = False
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = None
        if sys.stderr.isatty():
            self.thread = threading.Thread(target=self._run, name="helia-aot progress", daemon=True)
            self.thread.start()

    def stage(self, name: str, seconds: float) -> None:
        with self.lock:
            self.last_stage = name
            if _info():
                self._clear()
                print(f"info: {name}: {seconds:.3f} s", file=sys.stderr, flush=True)

    def _clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            self.shown = False

    def _run(self) -> None:
        if self.stop.wait(PROGRESS_AFTER_S):
            return
        while True:
            with self.lock:
                sys.stderr.write(f"\r\033[Kconverting {self.model}: {time.monotonic() - self.start:.1f} s, "
                                 f"{self.last_stage} done")
                sys.stderr.flush()
                self.shown = True
            if self.stop.wait(0.25):
                return

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()
        with self.lock:
            self._clear()
            sys.stderr.flush()


def _cmd_convert(args: list[str]) -> int:
    if len(args) != 1:
        _fail("UsageError", f"convert takes exactly one MODEL argument, got {len(args)}. {_USAGE.splitlines()[0]}")
    if not FLAGS.output:
        _fail("UsageError", "convert needs -o OUTDIR. " + _USAGE.splitlines()[0])
    progress = _Progress(args[0])
    try:
        result = convert(args[0], FLAGS.output, prefix=FLAGS.prefix, target=FLAGS.target,
                         kernel_library=FLAGS.kernel_library, config=FLAGS.config, with_test_data=FLAGS.test,
                         module_type=FLAGS.emit, reference=FLAGS.reference, plan=FLAGS.plan, goal=FLAGS.goal,
                         num_test_samples=FLAGS.num_samples, seed=FLAGS.seed, tolerance=FLAGS.tolerance,
                         on_stage=progress.stage)
    finally:
        progress.close()
    if _info():
        for name in result.files:
            print(f"info: wrote {os.path.join(result.output_dir, name)}", file=sys.stderr)
    mem = result.report["memory"]
    print(f"wrote {result.output_dir} (prefix {result.prefix}, target {result.plan['platform']['name']}, "
          f"kernels {result.plan['kernel_library']['name']})")
    print(f"  scratch arena {mem['scratch_arena_bytes']} B (lower bound {mem['lower_bound_bytes']} B, "
          f"ratio {mem['ratio']}), constants {mem['constant_bytes']} B, {result.report['total_macs']} MACs, "
          f"{result.seconds:.3f} s")
    for w in result.report["warnings"]:
        print(f"warning: {w}", file=sys.stderr)
    return 0


def _cmd_config(config_path) -> int:
    if FLAGS.schema:
        print(schema_text())
        return 0
    import yaml
    print(yaml.safe_dump(config_mod.load(config_path).as_dict(), sort_keys=False).rstrip())
    return 0


def _cmd_report(args: list[str]) -> int:
    if len(args) != 1:
        _fail("UsageError", f"report takes exactly one OUTDIR argument, got {len(args)}. "
                            f"usage: {_usage_line(COMMANDS['report'])}")
    path = regenerate(args[0])
    print(f"wrote {path}")
    return 0


def _check_flags_apply(command: Command) -> None:
    """A flag of another command is a slip (`targets --test`): say which flags this one takes."""
    for name in sorted({n for c in COMMANDS.values() for n in c.flags}):
        if FLAGS[name].present and name not in command.flags:
            takes = ", ".join(f"--{n}" for n in command.flags) or "no flags of its own"
            _fail("UsageError", f"--{name} does not apply to `helia-aot {command.name}`, which takes {takes}. "
                                f"Run `helia-aot {command.name} --help`")


def main(argv: list[str]) -> int:
    args = argv[1:]
    if not args:
        print(general_help())
        return 2
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        _fail("UsageError", f"unknown command {command!r}. "
                            + rename_hint(command, COMMANDS, f"Commands: {', '.join(COMMANDS)}.")
                            + " Run `helia-aot --help`")
    if command == "help" and rest and rest[0] not in COMMANDS:
        _fail("UsageError", f"no help for {rest[0]!r}, which is not a command. "
                            + rename_hint(rest[0], COMMANDS, f"Commands: {', '.join(COMMANDS)}."))
    _check_flags_apply(COMMANDS[command])
    try:
        if command == "help":
            print(command_help(COMMANDS[rest[0]]) if rest and rest[0] != "help" else general_help())
            return 0
        if command == "convert":
            return _cmd_convert(rest)
        if command == "operators":
            status = _cmd_operators(rest)
            sys.stdout.flush()  # a reader that went away shows here, not in the interpreter's exit flush
            return status
        if rest:
            if command != "report":
                _fail("UsageError", f"{command} takes no arguments, got {rest[0]!r}. "
                                    f"usage: {_usage_line(COMMANDS[command])}")
        if command == "targets":
            return _cmd_targets(FLAGS.config)
        if command == "version":
            print(version_text())
            return 0
        if command == "config":
            return _cmd_config(FLAGS.config)
        if command == "report":
            return _cmd_report(rest)
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


def _exit_on_signal(signum, _frame) -> None:
    """SIGTERM / SIGHUP end the conversion as an exception would, so the temporary folder beside OUTDIR
    is removed on the way out (a SIGKILLed run's is removed by the next conversion into OUTDIR)."""
    raise SystemExit(128 + signum)


def run() -> None:
    """Console-script entry point."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _exit_on_signal)
    app.run(main, flags_parser=_parse)


if __name__ == "__main__":
    run()
