# SPDX-License-Identifier: Apache-2.0
"""The output directory (helia_aot/emit/output_dir.py): cases mutation sampling showed untested
(tests/MUTATION.md, 2026-12-02): an output path that is a file is refused with its hint and kept; a
previous module whose files cannot be read is refused in one line naming the directory and the
system's reason, and is left as it was. The tests run as root, who reads any file, so the unreadable
file is made by failing its hashing as an ordinary user's would."""

from __future__ import annotations

import errno

import pytest

import helia_aot
from helia_aot.emit import output_dir
from helia_aot.errors import OutputDirError

from .test_ops import conv_model
from .test_output_dir import snapshot


def test_an_unreadable_previous_module_is_refused_and_kept(tmp_path, monkeypatch):
    out = tmp_path / "out"
    helia_aot.convert(conv_model().build(), out, prefix="old")
    before = snapshot(out)

    def unreadable(path):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(output_dir, "_sha256", unreadable)
    with pytest.raises(OutputDirError) as refused:
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert (refused.value.message, refused.value.hint) == (
        f"cannot list output directory {out}: Permission denied", "Check the -o path and its permissions")
    assert snapshot(out) == before


def test_an_output_path_that_is_a_file_is_refused_with_the_hint(tmp_path):
    out = tmp_path / "out"
    out.write_text("my notes\n")
    with pytest.raises(OutputDirError) as refused:
        helia_aot.convert(conv_model().build(), out, prefix="new")
    assert (refused.value.message, refused.value.hint) == (
        f"output path {out} exists and is not a directory", "Choose another -o path")
    assert out.read_text() == "my notes\n"
