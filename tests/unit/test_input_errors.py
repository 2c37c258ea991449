# SPDX-License-Identifier: Apache-2.0
"""Inputs other than the model: configurations, target files, API arguments, command-line flags
and the Bazel action's arguments. Each mistake is one typed error on one line that names the key
(file, line) and says what to do, the closest valid name when one was misspelt."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import helia_aot
from helia_aot.config import options
from helia_aot.errors import HeliaError, InvalidConfigError, OutputDirError, UnknownTargetError
from tests.unit.test_errors import relu_model

from .helpers import REPO


def error_of(config=None, **overrides) -> HeliaError:
    with pytest.raises(HeliaError) as info:
        options.resolve(config, **overrides)
    message = str(info.value)
    assert "\n" not in message and message.isprintable(), message
    return info.value


def expect(error: HeliaError, cls: type, *fragments: str) -> None:
    assert type(error) is cls, f"{type(error).__name__}: {error}"
    for fragment in fragments:
        assert fragment in str(error), f"{fragment!r} not in: {error}"


# -- configuration keys and values ------------------------------------------------------------

@pytest.mark.parametrize("config,fragments", [
    ({"optimisation": {"goal": "size"}},
     ["unknown section 'optimisation' (allowed: ['memory', 'model', 'module', 'operators', 'optimization', 'target', 'test'])",
      "Did you mean optimization?"]),
    ({"optimization": {"kernal": "auto"}}, ["unknown key optimization.kernal", "Did you mean optimization.kernel?"]),
    ({"module": {"arena_mode": "static"}}, ["unknown key module.arena_mode", "Did you mean module.arena?"]),
    ({"target": {"prefix": "kws"}}, ["unknown key target.prefix",
                                     "prefix belongs in section module: write it as module.prefix"]),
    ({"module": {"zzz": 1}}, ["unknown key module.zzz", "Remove or rename the key"]),
    ({"optimization": {"goal": "latancy"}}, ["optimization.goal is 'latancy', allowed values are",
                                             "Did you mean latency?"]),
    ({"module": {"prefix": 7}}, ["module.prefix must be str, got int 7. Set module.prefix to a str"]),
    ({"memory": {"arena_alignment": "16"}}, ["memory.arena_alignment must be int, got str '16'. "
                                             "Set memory.arena_alignment to an int"]),
    ({"memory": {"arena_alignment": True}}, ["memory.arena_alignment must be int, got bool True"]),
    ({"optimization": {"allow_approximate": "yes"}}, ["optimization.allow_approximate must be bool"]),
    ({"test": {"num_samples": 0}}, ["test.num_samples must be between 1 and 10000, got 0"]),
    ({"test": {"num_samples": 10**9}}, ["test.num_samples must be between 1 and 10000, got 1000000000"]),
    ({"test": {"tolerance": -1}}, ["test.tolerance must be between 0 and 2147483647, got -1"]),
    ({"test": {"tolerance": 2**40}}, ["test.tolerance must be between 0 and 2147483647"]),
    ({"test": {"seed": -5}}, ["test.seed must be between 0 and 4294967295, got -5"]),
    ({"memory": {"arena_alignment": 0}}, ["memory.arena_alignment must be between 1 and 65536, got 0"]),
    ({"memory": {"arena_alignment": -16}}, ["memory.arena_alignment must be between 1 and 65536, got -16"]),
    ({"memory": {"arena_alignment": 1 << 40}}, ["memory.arena_alignment must be between 1 and 65536"]),
    ({"memory": {"arena_alignment": 24}}, ["memory.arena_alignment 24 is not a power of two. Use 4, 8 or 16"]),
    ({"module": ["prefix", "kws"]}, ["section 'module' must be a mapping"]),
    (["module"], ["config must be a mapping, a Config or the path of a YAML file, got list ['module']"]),
])
def test_config_mistakes(config, fragments):
    expect(error_of(config), InvalidConfigError, *fragments)


def test_config_that_is_not_a_mapping_or_a_path():
    expect(error_of(42), InvalidConfigError, "config must be a mapping, a Config or the path of a YAML file, got int")
    expect(error_of(""), InvalidConfigError, "got str ''")


def test_overrides_are_checked_like_the_file(tmp_path):
    expect(error_of(num_test_samples=0), InvalidConfigError, "override: test.num_samples must be between 1 and")
    expect(error_of(seed=-1), InvalidConfigError, "override: test.seed must be between 0 and")
    expect(error_of(tolerance="1"), InvalidConfigError, "override: test.tolerance must be int, got str")
    with pytest.raises(InvalidConfigError, match="test.num_samples must be between 1 and 10000, got 20000"):
        helia_aot.convert(relu_model(), tmp_path / "out", with_test_data=True, num_test_samples=20000)
    assert not (tmp_path / "out").exists()


def test_memory_overrides_name_a_writable_memory_of_the_target():
    expect(error_of({"memory": {"scratch_memory": "DTCMM"}}, target="corstone300"), InvalidConfigError,
           "memory.scratch_memory 'DTCMM' is not a memory of target corstone300", "Did you mean DTCM?")
    expect(error_of({"memory": {"scratch_memory": "ROM"}}, target="host"), InvalidConfigError,
           "memory.scratch_memory 'ROM' is read-only on target host", "Put the arena in a writable memory")


# -- configuration files ------------------------------------------------------------------------

@pytest.mark.parametrize("raw,fragments", [
    (b"module:\n  prefix: kws\n  arena: [static\n", ["is not valid YAML at line 4", "Fix the YAML syntax"]),
    (b"module:\n  prefix: a: b\n", ["is not valid YAML at line 2: mapping values are not allowed here"]),
    (b"module:\n  prefix: kws\nmodule:\n  arena: caller\n",
     ["is not valid YAML at line 3: key 'module' appears twice (first at line 1)"]),
    (b"module:\n  prefix: kws\n  prefix: other\n", ["key 'prefix' appears twice (first at line 2)"]),
    (b"module:\n  prefix: \xff\xfe\n", ["is not UTF-8 text (byte 0xff at offset 18). Save it as UTF-8"]),
    (b"[" * 5000 + b"]" * 5000, ["nests too deeply to be a configuration"]),
    (b"- module\n- target\n", ["must be a mapping of sections, got list"]),
    (b"module:\n  prefix: !!python/object/apply:os.system [echo]\n", ["is not valid YAML at line 2"]),
])
def test_config_file_mistakes(tmp_path, raw, fragments):
    path = tmp_path / "helia.yaml"
    path.write_bytes(raw)
    error = error_of(str(path))
    expect(error, InvalidConfigError, str(path), *fragments)


def test_config_file_merge_keys_and_bom_are_fine(tmp_path):
    path = tmp_path / "helia.yaml"
    path.write_bytes("\ufeffbase: &base {prefix: kws}\n".encode() + b"module:\n  <<: *base\n  prefix: other\n")
    # A merge of an anchor is an alias: refused (aliases can expand a small file to gigabytes).
    expect(error_of(str(path)), InvalidConfigError, "uses a YAML alias at line 3", "Write the value out")
    path.write_bytes("\ufeffmodule:\n  <<: {prefix: kws, arena: caller}\n  prefix: other\n".encode())
    resolved = options.resolve(str(path))
    assert (resolved.prefix, resolved.arena) == ("other", "caller")


def test_missing_config_file(tmp_path):
    expect(error_of(str(tmp_path / "none.yaml")), InvalidConfigError,
           f"config file {tmp_path / 'none.yaml'} does not exist. Check the --config path")


# -- target files and custom targets ------------------------------------------------------------

MINE = "targets:\n  - name: mine\n    cpu: cortex-m7\n    capabilities: [dsp, fpu]\n" \
       "    memories:\n      - {name: SRAM, size: 65536}\n      - {name: FLASH, size: 1048576, writable: false}\n" \
       "    scratch_memory: SRAM\n    constant_memory: FLASH\n"


def target_error(tmp_path, text: str | bytes, name: str = "mine") -> HeliaError:
    path = tmp_path / "targets.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return error_of({"target": {"file": str(path), "name": name}})


def test_a_valid_target_file_resolves(tmp_path):
    (tmp_path / "targets.yaml").write_text(MINE)
    target = options.resolve({"target": {"file": str(tmp_path / "targets.yaml"), "name": "mine"}}).target
    assert (target.name, target.cpu, target.capabilities, target.scratch_memory) == ("mine", "cortex-m7",
                                                                                     ("dsp", "fpu"), "SRAM")


@pytest.mark.parametrize("text,fragments", [
    ("", ["must hold a non-empty list under 'targets'"]),
    ("targets: []\n", ["must hold a non-empty list under 'targets'"]),
    ("target:\n  - name: mine\n", ["unknown key 'target' (allowed: ['targets'])", "Did you mean targets?"]),
    ("targets:\n  - [mine]\n", ["targets[0] must be a mapping"]),
    ("targets:\n  - name: mine\n    base: corstone300\n    memorys: []\n",
     ["targets[0]: unknown key 'memorys'", "Did you mean memories?"]),
    ("targets:\n  - name: 'my board'\n    base: corstone300\n",
     ["targets[0].name must be a name of at most 64 letters, digits", "got 'my board'"]),
    ("targets:\n  - name: \"x */ int y; /*\"\n    base: host\n", ["targets[0].name must be a name"]),
    ("targets:\n  - name: mine\n    base: [corstone300]\n", ["targets[0].base must be a name"]),
    ("targets:\n  - name: mine\n    cpu: cortex-m7\n", ["targets[0] has no memories"]),
    ("targets:\n  - name: mine\n    base: corstone300\n    capabilities: [dsp, mev]\n",
     ["capabilities has 'mev', not one of ['dsp', 'mve', 'mve_f', 'fpu', 'fp16', 'double']",
      "Did you mean mve?"]),
    ("targets:\n  - name: mine\n    base: corstone300\n    capabilities: dsp\n", ["capabilities must be a list"]),
    ("targets:\n  - name: mine\n    base: corstone300\n    capabilities: [mve]\n", ["has mve without dsp"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: RAM, size: -1}]\n",
     ["memories[0].size must be a number of bytes from 1 to 4294967296 (4 GiB), got -1"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: RAM, size: 8589934592}]\n",
     ["memories[0].size must be a number of bytes", "got 8589934592"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: RAM, size: true}]\n", ["got True"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: RAM, size: 512KiB}]\n", ["got '512KiB'"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: RAM, size: 4096, base: 0xFFFFF000, x: 1}]\n",
     ["memories[0]: unknown key 'x'"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: RAM, size: 8192, base: 0xFFFFF000}]\n",
     ["memories[0].base must be an address from 0 with base + size at most 0x100000000, got 4294963200"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: RAM, size: 64, writable: 'no'}]\n",
     ["memories[0].writable must be true or false, got 'no'"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: RAM, size: 64}, {name: ram, size: 64}]\n",
     ["memories names 'RAM' twice (names are compared ignoring case)"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: ROM, size: 64, writable: false}]\n",
     ["scratch_memory 'ROM' is read-only (writable: false). Put the arena in a writable memory"]),
    ("targets:\n  - name: mine\n    cpu: m7\n    memories: [{name: SRAM, size: 64}]\n    scratch_memory: SRAMM\n",
     ["scratch_memory 'SRAMM' is not one of the memories ['SRAM']", "Did you mean SRAM?"]),
    ("targets:\n  - name: mine\n    base: host\n    arena_alignment: 12\n",
     ["arena_alignment must be a power of two from 1 to 65536, got 12"]),
    ("targets:\n  - name: mine\n    base: host\n    arena_alignment: 131072\n", ["got 131072"]),
    ("targets:\n  - name: mine\n    base: host\n    description: [a]\n", ["description must be a string"]),
    ("targets:\n  - name: mine\n    base: host\n  - name: mine\n    base: corstone300\n",
     ["defines target 'mine' twice"]),
    ("targets:\n  - name: mine\n    base: host\n    1: x\n    name2: y\n", ["unknown key 1"]),
    (b"targets:\n  - name: m\xe9\n", ["is not UTF-8 text (byte 0xe9"]),
    ("targets:\n  - name: mine\n   base: host\n", ["target file", "is not valid YAML at line 3"]),
])
def test_target_file_mistakes(tmp_path, text, fragments):
    expect(target_error(tmp_path, text), InvalidConfigError, *fragments)


def test_target_file_with_an_unknown_base_or_missing(tmp_path):
    expect(target_error(tmp_path, "targets:\n  - name: mine\n    base: corstone310\n"), UnknownTargetError,
           "unknown target 'corstone310'", "Did you mean corstone300?")
    expect(error_of({"target": {"file": str(tmp_path / "none.yaml")}}), InvalidConfigError,
           "target file", "does not exist. Check the target.file path")


def test_custom_target_clashing_with_the_file(tmp_path):
    (tmp_path / "targets.yaml").write_text(MINE)
    config = {"target": {"file": str(tmp_path / "targets.yaml"), "name": "mine",
                         "custom": {"name": "mine", "base": "host"}}}
    expect(error_of(config), InvalidConfigError, "the configuration (target.file and target.custom) defines target "
                                                 "'mine' twice")


@pytest.mark.parametrize("target,cls,fragments", [
    ("corstone30", UnknownTargetError, ["unknown target 'corstone30' (known targets: apollo3_evb, ",
                                        "corstone300, host, imxrt1060_evk, ", "Did you mean corstone300?"]),
    ("m7board", UnknownTargetError, ["unknown target 'm7board'", "Pick one of those"]),
    (["host"], UnknownTargetError, ["a target is named by a string, got list ['host']"]),
])
def test_target_names(target, cls, fragments):
    expect(error_of(target=target), cls, *fragments)


# -- command line -------------------------------------------------------------------------------

def cli(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "helia_aot", *args], capture_output=True, text=True, env=env,
                          cwd=cwd)


def one_line(proc, error_class) -> str:
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: {error_class}: "), proc.stderr
    return lines[0]


@pytest.mark.parametrize("flag,fragment", [
    ("--config=", "--config needs the path of a YAML file, got an empty value"),
    ("--output=", "--output needs an output directory, got an empty value"),
    ("--target=", "--target needs a target name, got an empty value"),
    ("--kernel_library=Portable", "value should be one of <ns_cmsis_nn|portable>"),
    ("--no_such_flag=1", "no_such_flag"),
])
def test_cli_flag_mistakes(tmp_path, flag, fragment):
    model = tmp_path / "m.tflite"
    model.write_bytes(relu_model())
    assert fragment in one_line(cli("convert", str(model), "-o", str(tmp_path / "o"), flag), "UsageError")


def test_cli_config_mistake_is_one_line(tmp_path):
    model = tmp_path / "m.tflite"
    model.write_bytes(relu_model())
    config = tmp_path / "c.yaml"
    config.write_text("optimization:\n  kernal: auto\n")
    line = one_line(cli("convert", str(model), "-o", str(tmp_path / "o"), "--config", str(config)),
                    "InvalidConfigError")
    assert "unknown key optimization.kernal" in line and line.endswith("Did you mean optimization.kernel?")


def test_output_dir_holding_other_files_is_not_replaced(tmp_path):
    """`-o .` in a project folder must not replace the folder (it held the model and the user's files)."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "m.tflite").write_bytes(relu_model())
    (work / "notes.txt").write_text("keep me")
    line = one_line(cli("convert", "m.tflite", "-o", ".", cwd=work), "OutputDirError")
    assert f"holds {work / 'm.tflite'}, an input of this conversion" in line
    assert sorted(p.name for p in work.iterdir()) == ["m.tflite", "notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work"]  # no temp dir left behind
    with pytest.raises(OutputDirError, match="holds 'm.tflite' and 1 more, which helia_aot did not write"):
        helia_aot.convert(relu_model(), work, prefix="m")
    # A folder a conversion wrote is replaced as before.
    out = tmp_path / "out"
    helia_aot.convert(relu_model(), out, prefix="first")
    helia_aot.convert(relu_model(), out, prefix="second", with_test_data=True, num_test_samples=1)
    helia_aot.convert(relu_model(), out, prefix="third")
    assert sorted(p.name for p in out.iterdir()) == [".helia-aot-manifest.json", "README.md", "include", "src",
                                                     "third_plan.json", "third_report.html", "third_report.json"]


# -- the Bazel action program -------------------------------------------------------------------

def action(*args):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, str(REPO / "rules" / "private" / "helia_action.py"), *args],
                          capture_output=True, text=True, env=env)


def test_bazel_action_checks_golden_arguments(tmp_path):
    model = tmp_path / "m.tflite"
    model.write_bytes(relu_model())
    common = ["golden", "--model", str(model), "--prefix", "m", "--target", "host", "--kernel-library",
              "portable", "--seed", "0", "--tolerance", "1", "--test-data", str(tmp_path / "d.c"),
              "--test-main", str(tmp_path / "m.c")]
    proc = action(*common, "--num-samples", "0")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == ("error: InvalidConfigError: override: test.num_samples must be between 1 and "
                                   "10000, got 0. Set test.num_samples within that range")
    proc = action(*common, "--num-samples", "1", "--iterations", "0")
    assert proc.returncode == 2 and proc.stderr.strip() == (
        "error: InvalidConfigError: override: test.iterations must be between 1 and 10000, got 0. Set "
        "test.iterations within that range")
    proc = action(*common, "--num-samples", "twenty")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "argument --num-samples: invalid int value: 'twenty'" in proc.stderr
    proc = action(*common[:4], "1x", *common[5:], "--num-samples", "1")
    assert proc.returncode == 2 and proc.stderr.startswith("error: InvalidPrefixError: module prefix '1x'")


def test_bazel_action_converts_by_an_input_plan(tmp_path):
    """The rule's `plan` attribute reaches the conversion as --input-plan: a written plan replays to the
    same sources, and a plan for another target fails the action naming the field."""
    model = tmp_path / "m.tflite"
    model.write_bytes(relu_model())

    def module(name, target, *extra):
        out = tmp_path / name
        return action("module", "--model", str(model), "--prefix", "m", "--target", target, "--kernel-library",
                      "portable", "--include-dir", str(out / "include"), "--src-dir", str(out / "src"),
                      "--plan", str(out / "m_plan.json"), "--report", str(out / "m_report.json"), *extra)

    assert module("first", "host").returncode == 0
    proc = module("again", "host", "--input-plan", str(tmp_path / "first" / "m_plan.json"))
    assert proc.returncode == 0, proc.stderr
    for rel in ("src/m_model.c", "include/m_model.h", "m_plan.json"):
        assert (tmp_path / "first" / rel).read_bytes() == (tmp_path / "again" / rel).read_bytes(), rel
    proc = module("other", "corstone300", "--input-plan", str(tmp_path / "first" / "m_plan.json"))
    assert proc.returncode == 2 and proc.stderr.strip().startswith(
        f"error: InvalidConfigError: optimization.plan {tmp_path / 'first' / 'm_plan.json'} does not describe this "
        "conversion: platform.name: 'host' in the plan, 'corstone300' in this conversion.")
