# SPDX-License-Identifier: Apache-2.0
"""Help pages: they name the commands and every flag, and what they say is what the tool does."""

from __future__ import annotations

import re

import yaml

from .test_cli import one_error_line, run

COMMANDS = ("convert", "targets", "operators", "config", "report", "version", "help")


def _flags_listed(text: str) -> list[str]:
    """Flag names in a help page's flag lines (`  --name=VALUE`, `  -o OUTDIR, --output=OUTDIR`)."""
    return re.findall(r"^  (?:-\w [A-Z.a-z]+, |-\w, )?--(\w+)", text, re.M)


def test_general_help_names_every_command_and_the_schema():
    pages = [run("--help"), run("help"), run("-h")]
    for proc in pages:
        assert proc.returncode == 0, proc.stderr
        assert "USAGE: helia-aot [flags]" not in proc.stdout  # absl's page names no command
        for command in COMMANDS:
            assert re.search(rf"^  {command} +\S", proc.stdout, re.M), (command, proc.stdout)
        assert "helia-aot config --schema" in proc.stdout
    assert pages[0].stdout == pages[1].stdout == pages[2].stdout
    # ... and every command's flags, as its own page lists them.
    for command in ("convert", "targets", "config"):
        assert set(_flags_listed(run(command, "--help").stdout)) <= set(_flags_listed(pages[0].stdout)), command
    bare = run()
    assert bare.returncode == 2 and bare.stdout == pages[0].stdout


def test_convert_help_lists_every_flag_with_meaning_and_default(tmp_path):
    page = run("convert", "--help")
    assert page.returncode == 0, page.stderr
    assert page.stdout == run("help", "convert").stdout
    assert page.stdout.startswith("usage: helia-aot convert MODEL -o OUTDIR")
    listed = _flags_listed(page.stdout)
    for name in ("output", "prefix", "target", "config", "kernel_library", "test", "verbosity", "help"):
        assert name in listed, (name, page.stdout)
    # Each flag has a line of meaning under it that ends with its default (or says it is required).
    blocks = re.split(r"^  -", page.stdout, flags=re.M)[1:]
    for block in blocks:
        block = block.split("\n\n")[0]
        if block.startswith("h, --help"):
            continue
        assert re.search(r"\((default: .+|required)\)\s*$", " ".join(block.split()), re.S), block
    text = " ".join(page.stdout.split())
    assert "One of: ns_cmsis_nn, portable" in text
    assert "default: target.name from --config, else 'host'" in text
    assert "default: module.prefix from --config, else 'model'" in text
    # What the page says is the default is what convert does.
    from tests.unit.test_errors import relu_model
    model = tmp_path / "m.tflite"
    model.write_bytes(relu_model())
    proc = run("convert", str(model), "-o", str(tmp_path / "o"))
    assert proc.returncode == 0, proc.stderr
    assert "prefix model, target host, kernels ns_cmsis_nn" in proc.stdout
    assert not (tmp_path / "o" / "test").exists()  # --test: default off


def test_every_listed_flag_is_accepted_by_its_command(tmp_path):
    values = {"output": str(tmp_path / "o"), "prefix": "p", "target": "host", "config": str(tmp_path / "c.yaml"),
              "kernel_library": "portable"}
    (tmp_path / "c.yaml").write_text("module:\n  prefix: q\n")
    for command in ("targets", "config"):
        page = run(command, "--help")
        assert page.returncode == 0, page.stderr
        for name in _flags_listed(page.stdout):
            if name in ("help", "verbosity"):
                continue
            proc = run(command, f"--{name}={values[name]}" if name in values else f"--{name}")
            assert proc.returncode == 0, (command, name, proc.stderr)


def test_targets_and_operators_help():
    targets = run("targets", "--help")
    assert targets.returncode == 0
    assert targets.stdout.startswith("usage: helia-aot targets")
    assert "--config=FILE.yaml" in targets.stdout and "--output" not in targets.stdout
    operators = run("operators", "-h")
    assert operators.returncode == 0 and operators.stdout.startswith("usage: helia-aot operators")
    assert "flags:\n  --" not in operators.stdout  # takes none of its own


def _schema_entries(text: str) -> dict[tuple[str, str], tuple[str, str]]:
    entries, section = {}, None
    for line in text.splitlines():
        if re.match(r"^\w+:$", line):
            section = line[:-1]
        elif m := re.match(r"^  (\w+): (.+) = (.+)$", line):
            entries[(section, m.group(1))] = (m.group(2), m.group(3))
    return entries


def test_config_schema_lists_every_key_the_loader_accepts(tmp_path):
    proc = run("config", "--schema")
    assert proc.returncode == 0, proc.stderr
    entries = _schema_entries(proc.stdout)
    assert {s for s, _ in entries} == {"model", "module", "target", "memory", "optimization", "test"}
    assert entries[("optimization", "goal")] == ("str [latency | balanced | size | accuracy]", "'balanced'")
    assert entries[("test", "num_samples")][0] == "int [1..10000]"
    # Every listed key, at its listed default, loads; and the loaded configuration has those defaults.
    doc: dict = {}
    for (section, key), (_, default) in entries.items():
        value = None if default == "none" else yaml.safe_load(default.strip("'"))
        if default.startswith("'"):
            value = default.strip("'")
        doc.setdefault(section, {})[key] = value
    cfg = tmp_path / "all.yaml"
    cfg.write_text(yaml.safe_dump(doc))
    shown = run("config", "--config", str(cfg))
    assert shown.returncode == 0, shown.stderr
    assert yaml.safe_load(shown.stdout) == {**doc, "operators": []} == yaml.safe_load(run("config").stdout)
    # The operators section is a list of entries: its keys are listed without defaults.
    assert "operators:  # a list of entries" in proc.stdout and "\n  type: str\n" in proc.stdout
    # A key the schema does not list is refused.
    (tmp_path / "bad.yaml").write_text("optimization:\n  gaol: size\n")
    line = one_error_line(run("config", "--config", str(tmp_path / "bad.yaml")), "InvalidConfigError")
    assert "optimization.goal" in line


def test_unknown_command_names_the_closest():
    line = one_error_line(run("conver", "m.tflite"), "UsageError")
    assert "unknown command 'conver'" in line and "Did you mean convert?" in line
    line = one_error_line(run("tragets"), "UsageError")
    assert "Did you mean targets?" in line
    line = one_error_line(run("xyzzy"), "UsageError")
    assert "Did you mean" not in line and "convert" in line  # nothing close: the list instead
    line = one_error_line(run("help", "opertors"), "UsageError")
    assert "Did you mean operators?" in line


def test_unknown_flag_names_the_closest_of_the_command():
    line = one_error_line(run("convert", "m.tflite", "--outptu", "o"), "UsageError")
    assert "unknown flag --outptu" in line and "Did you mean --output?" in line
    assert "helia-aot convert --help" in line
    line = one_error_line(run("convert", "m.tflite", "--kernel-libary=portable"), "UsageError")
    assert "unknown flag --kernel_libary. Did you mean --kernel_library?" in line  # - and _ are one
    line = one_error_line(run("config", "--shema"), "UsageError")
    assert "Did you mean --schema?" in line


def test_flag_of_another_command_is_refused():
    line = one_error_line(run("targets", "--test"), "UsageError")
    assert "--test does not apply to `helia-aot targets`" in line and "--config" in line
    line = one_error_line(run("operators", "--prefix", "x"), "UsageError")
    assert "--prefix does not apply" in line


def test_flag_descriptions_fill_a_hundred_columns():
    """Descriptions wrap at 100 columns (an 80-column terminal still shows them whole; textwrap's 70 would
    make the page half again as long)."""
    lines = run("convert", "--help").stdout.splitlines()
    described = [line for line in lines if line.startswith("      ")]
    assert described and max(len(line) for line in described) <= 100
    assert any(len(line) > 90 for line in described)
