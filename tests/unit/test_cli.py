# SPDX-License-Identifier: Apache-2.0
"""The helia-aot command: exit codes and the one-line error format."""

from __future__ import annotations

import os
import subprocess
import sys

from helia_aot.config.targets import builtin_targets

from .helpers import REPO


def run(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "helia_aot", *args], capture_output=True, text=True, env=env,
                          cwd=cwd)


def one_error_line(proc, error_class):
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"error: {error_class}: ")
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_targets_lists_registry():
    proc = run("targets")
    assert proc.returncode == 0
    lines = {line.split()[0]: line for line in proc.stdout.splitlines()}
    assert list(lines) == sorted(t.name for t in builtin_targets())
    for target in builtin_targets():  # every listed fact is the registry's, the source included
        line = lines[target.name]
        assert f"cpu={target.cpu} " in line and f"capabilities=[{', '.join(target.capabilities) or 'none'}]" in line
        assert f"kernels={target.kernel_build} " in line and all(f"{m.name} " in line for m in target.memories)
        assert target.citation and line.endswith(f"(builtin; {target.citation})")
    assert "capabilities=[dsp, mve, mve_f, fpu, fp16, double]" in lines["corstone300"]
    # Memories say which are read-only and where scratch, constants and persistent state go by default.
    assert "SSRAM1 4 MiB ro <constants>" in lines["mps2_an385"] and "SSRAM23 4 MiB <scratch+persistent>" in lines[
        "mps2_an385"]
    assert "FLASH 256 KiB ro <constants>, SRAM 16 KiB <scratch+persistent>" in lines["microbit"]


def test_targets_lists_a_custom_target_from_the_configuration(tmp_path):
    targets = tmp_path / "targets.yaml"
    targets.write_text("targets:\n  - name: my_m33\n    cpu: cortex-m33\n    capabilities: [dsp]\n"
                       "    memories:\n      - {name: FLASH, size: 1048576, writable: false}\n"
                       "      - {name: SRAM, size: 262144}\n      - {name: RETAINED, size: 8192}\n"
                       "    scratch_memory: SRAM\n    constant_memory: FLASH\n    persistent_memory: RETAINED\n")
    config = tmp_path / "config.yaml"
    config.write_text(f"target:\n  file: {targets}\n")
    proc = run("targets", "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.splitlines()[-1]
    assert line.startswith("my_m33 ") and "cpu=cortex-m33 " in line and "capabilities=[dsp] kernels=dsp" in line
    assert ("memories=[FLASH 1 MiB ro <constants>, SRAM 256 KiB <scratch>, RETAINED 8 KiB <persistent>] (custom)"
            in line)


def test_missing_model(tmp_path):
    line = one_error_line(run("convert", str(tmp_path / "none.tflite"), "-o", str(tmp_path / "o")),
                          "InvalidModelError")
    assert "none.tflite does not exist" in line


def test_empty_and_truncated_model(tmp_path):
    empty = tmp_path / "empty.tflite"
    empty.write_bytes(b"")
    assert "is empty" in one_error_line(run("convert", str(empty), "-o", str(tmp_path / "o")), "InvalidModelError")
    junk = tmp_path / "junk.tflite"
    junk.write_bytes(b"\x10\x00\x00\x00TFL3" + b"\xff" * 40)
    one_error_line(run("convert", str(junk), "-o", str(tmp_path / "o")), "InvalidModelError")
    assert not (tmp_path / "o").exists()


def test_unknown_target_and_bad_prefix(tmp_path):
    model = tmp_path / "m.tflite"
    from tests.unit.test_errors import relu_model
    model.write_bytes(relu_model())
    one_error_line(run("convert", str(model), "-o", str(tmp_path / "o"), "--target", "nope"), "UnknownTargetError")
    one_error_line(run("convert", str(model), "-o", str(tmp_path / "o"), "--prefix", "1x"), "InvalidPrefixError")
    debug = run("convert", str(model), "-o", str(tmp_path / "o"), "--prefix", "1x", "--verbosity=debug")
    assert debug.returncode == 2 and "Traceback" in debug.stderr


def test_convert_success_and_config_override(tmp_path):
    model = tmp_path / "m.tflite"
    from tests.unit.test_errors import relu_model
    model.write_bytes(relu_model())
    cfg = tmp_path / "c.yaml"
    cfg.write_text("module:\n  prefix: fromfile\ntarget:\n  name: corstone300\n")
    proc = run("convert", str(model), "-o", str(tmp_path / "o"), "--config", str(cfg), "--prefix", "fromflag")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "o" / "include" / "fromflag_model.h").exists()
    assert '"name": "corstone300"' in (tmp_path / "o" / "fromflag_plan.json").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text("modul:\n  prefix: x\n")
    one_error_line(run("convert", str(model), "-o", str(tmp_path / "o2"), "--config", str(bad)), "InvalidConfigError")


def _run_with_bug(*args):
    """The CLI with helia_aot.pipeline.convert replaced by one that fails as a bug would."""
    code = ("import sys\n"
            "import helia_aot.pipeline as compiler\n"
            "def broken(*args, **kwargs):\n"
            "    raise RuntimeError('injected bug')\n"
            "compiler.convert = broken\n"
            "from helia_aot import cli\n"
            f"sys.argv = ['helia-aot', *{list(args)!r}]\n"
            "cli.run()\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_internal_error_is_one_line_with_its_own_status(tmp_path):
    proc = _run_with_bug("convert", str(tmp_path / "m.tflite"), "-o", str(tmp_path / "o"))
    assert proc.returncode == 3, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: InternalError: "), proc.stderr
    assert "RuntimeError" in lines[0] and "bug in helia-aot" in lines[0] and "report it" in lines[0]
    assert "--verbosity=debug" in lines[0] and "Traceback" not in proc.stderr
    debug = _run_with_bug("convert", str(tmp_path / "m.tflite"), "-o", str(tmp_path / "o"), "--verbosity=debug")
    assert debug.returncode == 3
    assert "Traceback" in debug.stderr and "RuntimeError: injected bug" in debug.stderr
    assert debug.stderr.rstrip().splitlines()[-1].startswith("error: InternalError: ")


def test_output_closed_early_is_not_an_error():
    # `helia-aot operators | head -1`: the pipe closes while the catalog is still being printed.
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "helia_aot", "operators"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, stderr
    assert "Traceback" not in stderr and "error" not in stderr
