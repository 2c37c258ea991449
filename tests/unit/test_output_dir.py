# SPDX-License-Identifier: Apache-2.0
"""The output directory is replaced whole or not at all: failures after the temporary directory exists
leave nothing behind and the previous OUTDIR as it was."""

from __future__ import annotations

import os

import pytest

import helia_aot
from helia_aot import pipeline as compiler
from helia_aot.golden import test_data as golden
from helia_aot.errors import OutputDirError

from .test_ops import conv_model


def snapshot(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def previous(tmp_path):
    """An OUTDIR from an earlier conversion under another prefix (so its files differ from a new one's)."""
    out = tmp_path / "out"
    helia_aot.convert(conv_model().build(), out, prefix="old")
    return out, snapshot(out)


def test_replacing_drops_the_old_files_and_leaves_no_backup(tmp_path, previous):
    out, _ = previous
    helia_aot.convert(conv_model().build(), out, prefix="other")
    assert not (out / "include" / "old_model.h").exists() and (out / "include" / "other_model.h").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_failure_while_writing_removes_the_temporary_directory(tmp_path, previous, monkeypatch):
    out, before = previous

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(golden, "write_test_data", broken)
    with pytest.raises(OSError):
        helia_aot.convert(conv_model().build(), out, with_test_data=True)
    assert [p.name for p in tmp_path.iterdir()] == ["out"], "temporary directory left behind"
    assert snapshot(out) == before


def test_failed_swap_restores_the_previous_directory(tmp_path, previous, monkeypatch):
    out, before = previous
    real_rename = os.rename
    calls = []

    def rename(src, dst):
        calls.append((str(src), str(dst)))
        if len(calls) == 2:  # the finished module into place, after the old OUTDIR moved aside
            raise OSError(18, "Invalid cross-device link")
        real_rename(src, dst)

    monkeypatch.setattr(compiler.os, "rename", rename)
    with pytest.raises(OutputDirError, match=f"cannot replace output directory {out}: Invalid cross-device link"):
        helia_aot.convert(conv_model().build(), out, prefix="other")
    assert len(calls) == 3  # aside, into place (fails), back
    assert [p.name for p in tmp_path.iterdir()] == ["out"], "temporary or backup directory left behind"
    assert snapshot(out) == before
