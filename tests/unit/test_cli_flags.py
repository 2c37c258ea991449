# SPDX-License-Identifier: Apache-2.0
"""The command line's flags and what it prints: version, verbosity by name, stage timings and files at
-v info, progress on a terminal only, the per-run configuration flags, the operator catalog filter and
warnings as plain `warning:` lines. Each runs the CLI as a subprocess and asserts its exact output."""

from __future__ import annotations

import ast
import json
import os
import pty
import re
import select
import subprocess
import sys

import pytest

from helia_aot import ops
from helia_aot.config import spec
from helia_aot.version import __version__, ns_cmsis_nn_required_str

from .helpers import REPO
from .test_cli import one_error_line, run

KWS = REPO / "models" / "kws.tflite"
VERSION_LINE = f"helia-aot {__version__} (generated modules call the ns-cmsis-nn {ns_cmsis_nn_required_str()} API)"
STAGES = ["options", "read the model", "front end", "lowering", "memory and code", "plan and report", "module files",
          "write OUTDIR"]


@pytest.fixture
def model(tmp_path):
    from tests.unit.test_errors import relu_model
    path = tmp_path / "m.tflite"
    path.write_bytes(relu_model())
    return path


@pytest.mark.parametrize("args", [("--version",), ("version",), ("targets", "--version")])
def test_version(args):
    proc = run(*args)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert proc.stdout == VERSION_LINE + "\n"


def test_a_default_conversion_prints_nothing_on_stderr(model, tmp_path):
    proc = run("convert", str(model), "-o", str(tmp_path / "o"))
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


@pytest.mark.parametrize("level", [("-v", "info"), ("--verbosity", "info"), ("-v=info",), ("--verbosity=INFO",),
                                   ("-v", "debug")])
def test_info_prints_each_stage_with_its_time_and_every_file_written(model, tmp_path, level):
    out = tmp_path / "o"
    proc = run("convert", str(model), "-o", str(out), *level)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    stages = [re.fullmatch(r"info: (.+): \d+\.\d{3} s", line) for line in lines[:len(STAGES)]]
    assert all(stages) and [m.group(1) for m in stages] == STAGES, proc.stderr
    written = sorted(str(p) for p in out.rglob("*") if p.is_file())
    assert lines[len(STAGES):] == [f"info: wrote {path}" for path in written]


def test_verbosity_names_with_a_space_and_errors_stay_one_line(model, tmp_path):
    line = one_error_line(run("convert", str(model), "-o", str(tmp_path / "o"), "-v", "loud"), "UsageError")
    assert line == "error: UsageError: --verbosity 'loud' is not a level. Use one of debug, info, warning, error, fatal"
    assert run("targets", "--verbosity", "warning").returncode == 0


def _slow_convert(stderr, seconds: float, *args):
    """The CLI with the model reading stage slowed down by `seconds`, stderr to `stderr`."""
    code = ("import sys, time\n"
            "import helia_aot.pipeline as pipeline\n"
            "read = pipeline.read_model\n"
            f"pipeline.read_model = lambda model: (time.sleep({seconds}), read(model))[1]\n"
            "from helia_aot import cli\n"
            f"sys.argv = ['helia-aot', *{list(args)!r}]\n"
            "cli.run()\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=stderr, env=env)


def test_progress_shows_on_a_terminal_only(model, tmp_path):
    # Not a terminal (a pipe, a log file): nothing beyond what a quick conversion prints.
    proc = _slow_convert(subprocess.PIPE, 2.6, "convert", str(model), "-o", str(tmp_path / "piped"))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and err == b"", err
    # A terminal: after 2 s, a line rewritten in place, cleared when the conversion ends.
    leader, follower = pty.openpty()
    proc = _slow_convert(follower, 2.6, "convert", str(model), "-o", str(tmp_path / "tty"))
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        assert ready, seen
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert proc.wait(timeout=60) == 0, seen
    text = seen.decode()
    # The first line at 2 s falls in the slowed stage: the stage before it is the last one done.
    assert re.search(rf"\r\x1b\[Kconverting {re.escape(str(model))}: [2-9]\.\d s, (options|read the model) done",
                     text), text
    assert text.endswith("\r\x1b[K"), text  # the line is gone: the terminal shows what it showed before


def test_configuration_flags_override_the_file(model, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("optimization:\n  goal: latency\ntest:\n  num_samples: 2\n  seed: 5\n  tolerance: 3\n")
    from_file = run("convert", str(model), "-o", str(tmp_path / "file"), "--config", str(cfg), "--test")
    assert from_file.returncode == 0, from_file.stderr
    flagged = run("convert", str(model), "-o", str(tmp_path / "flags"), "--config", str(cfg), "--test",
                  "--goal", "size", "--num-samples", "4", "--seed=9", "--tolerance", "0")
    assert flagged.returncode == 0, flagged.stderr
    for out, goal, samples, seed, tolerance in (("file", "latency", 2, 5, 3), ("flags", "size", 4, 9, 0)):
        plan = json.loads((tmp_path / out / "model_plan.json").read_text())
        assert plan["optimization"]["goal"] == goal
        data = (tmp_path / out / "test" / "model_test_data.c").read_text()
        assert f"{samples} golden samples (inputs drawn with seed {seed}," in data
        harness = (tmp_path / out / "test" / "model_test_main.c").read_text()
        assert f"#define MODEL_TEST_TOLERANCE ({tolerance})" in harness
    line = one_error_line(run("convert", str(model), "-o", str(tmp_path / "x"), "--goal", "fast"), "UsageError")
    assert line == ("error: UsageError: flag --goal=fast: value should be one of <latency|balanced|size|accuracy>. "
                    "Run `helia-aot --help` for the flags")
    line = one_error_line(run("convert", str(model), "-o", str(tmp_path / "x"), "--num_samples", "0"),
                          "InvalidConfigError")
    assert line == ("error: InvalidConfigError: override: test.num_samples must be between 1 and 10000, got 0. "
                    "Set test.num_samples within that range")


def test_operators_lists_the_types_asked_for():
    proc = run("operators", "CONV_2D", "add")
    assert proc.returncode == 0, proc.stderr
    heads = [line for line in proc.stdout.splitlines() if not line.startswith(" ")]
    variants = [f"{op_type} [{v.name}]" for op_type, v in ops.catalog() if op_type in ("ADD", "CONV_2D")]
    assert heads == variants and len(heads) > 2
    count = len(ops.supported_operators())
    for name, hint in (("CONV2D", "Did you mean CONV_2D?"), ("LSTM", "Did you mean UNIDIRECTIONAL_SEQUENCE_LSTM?"),
                       ("SIN", f"Run `helia-aot operators` for the {count} types it lowers.")):
        line = one_error_line(run("operators", "ADD", name), "UsageError")
        assert line == f"error: UsageError: '{name}' is not an operator type helia-aot lowers. {hint}"


def test_warnings_are_plain_lines_that_say_what_to_do(tmp_path):
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text("target:\n  name: tiny\n  custom:\n    name: tiny\n    base: host\n    memories:\n"
                   "      - {name: RAM, size: 1048576}\n      - {name: ROM, size: 1024, writable: false}\n"
                   "    scratch_memory: RAM\n    constant_memory: ROM\n")
    proc = run("convert", str(KWS), "-o", str(tmp_path / "o"), "--config", str(cfg))
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "o" / "model_report.json").read_text())
    constants = report["memory"]["constant_bytes"]
    assert proc.stderr == (f"warning: constants {constants} B exceed ROM (1024 B); set memory.constant_memory to a "
                           "larger memory of the target (`helia-aot targets` lists them) or convert for a target "
                           "with more memory\n")
    assert report["warnings"] == [proc.stderr[len("warning: "):].rstrip("\n")]


def _values_from_spec() -> dict[str, tuple[str, str]]:
    """key -> (allowed values or range, default), for every key with a fixed set or range: the one table."""
    rows = {}
    for info in spec.schema_keys():
        if info.allowed or info.range:
            values = ", ".join(map(str, info.allowed)) if info.allowed else f"{info.range[0]} to {info.range[1]}"
            rows[f"{info.section}.{info.key}"] = (values, "none" if info.default is None else str(info.default))
    return rows


def _values_from_readme() -> dict[str, tuple[str, str]]:
    text = (REPO / "README.md").read_text()
    table = text.split("<!-- readme-config-values -->\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    rows = {}
    for row in table:
        key, values, default = (cell.strip().replace("`", "") for cell in row.strip("|").split("|"))
        assert key not in rows, key
        rows[key] = (values, default)
    return rows


def _values_from_schema_page() -> dict[str, tuple[str, str]]:
    proc = run("config", "--schema")
    assert proc.returncode == 0, proc.stderr
    rows, section = {}, None
    for line in proc.stdout.splitlines():
        if re.match(r"^\w+:", line):
            section = line.split(":")[0]
        found = re.match(r"^  (\w+): [\w ]+ \[(.+?)\](?: = (.+))?$", line)
        if found:
            key, listed, default = found.groups()
            values = (", ".join(listed.split(" | ")) if ".." not in listed else
                      " to ".join(listed.split("..")))
            rows[f"{section}.{key}"] = (values, "none" if default in (None, "none") else default.strip("'"))
    return rows


def test_readme_and_schema_page_list_the_same_allowed_values():
    # Both are compared with spec.py's table, so neither can list a value the other lacks (or the
    # loader refuses), and a key added with allowed values must be added to the README.
    table = _values_from_spec()
    assert _values_from_schema_page() == table
    assert _values_from_readme() == table


@pytest.mark.parametrize("yaml_text,message", [
    ("optimization:\n  goal: 5\n",
     "optimization.goal must be one of ['latency', 'balanced', 'size', 'accuracy'], got int 5. Set optimization.goal "
     "to one of latency, balanced, size, accuracy"),
    ("operators:\n  - type: LSTM\n    optimization: {kernel: generic}\n",
     "operators[0]: type 'LSTM' is not an operator type helia_aot lowers. Did you mean UNIDIRECTIONAL_SEQUENCE_LSTM?"),
    ("operators:\n  - type: CONV\n",
     "operators[0]: type 'CONV' is not an operator type helia_aot lowers. Did you mean CONV_2D, DEPTHWISE_CONV_2D or "
     "TRANSPOSE_CONV?"),
])
def test_configuration_messages_name_the_values_and_types_meant(model, tmp_path, yaml_text, message):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml_text)
    line = one_error_line(run("convert", str(model), "-o", str(tmp_path / "o"), "--config", str(cfg)),
                          "InvalidConfigError")
    assert line == f"error: InvalidConfigError: {cfg}: {message}"


def test_every_warning_appended_in_helia_aot_is_made_by_errors_warning():
    # errors.warning(what, to_do) is what makes a warning carry what to do; a bare string appended to a
    # list of warnings would not.
    bare = []
    for path in sorted((REPO / "helia_aot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
                    and "warn" in ast.unparse(node.func.value)):
                made = node.args[0] if node.args else None
                if not (isinstance(made, ast.Call) and ast.unparse(made.func) == "warning"):
                    bare.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert bare == []
