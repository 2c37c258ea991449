# SPDX-License-Identifier: Apache-2.0
"""Reading a YAML file the user gave (a configuration, a target file) strictly: a repeated key, a
malformed or non-UTF-8 file is an InvalidConfigError naming the file and the line."""

from __future__ import annotations

from pathlib import Path

import yaml

from helia_aot.errors import InvalidConfigError


class _StrictLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping (the plain loader keeps the
    last one silently, so a repeated section would drop the first one's keys)."""

    def construct_mapping(self, node, deep=False):
        first: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in first
            except TypeError:
                continue  # unhashable: the base loader reports it
            if repeated:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} appears twice (first at line {first[key] + 1})", key_node.start_mark)
            first[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep)


def read_yaml(path: Path, what: str, hint: str):
    """The document in a YAML file; any unreadable, non-UTF-8 or malformed file is an
    InvalidConfigError naming the file (and the line)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InvalidConfigError(f"cannot read {what} {path}: {exc.strerror}", hint) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidConfigError(f"{what} {path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
                                 f"{exc.start})", "Save it as UTF-8") from None
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 (a SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None)
        raise InvalidConfigError(f"{what} {path} is not valid YAML{at}" + (f": {problem}" if problem else ""),
                                 "Fix the YAML syntax") from None
    except RecursionError:
        raise InvalidConfigError(f"{what} {path} nests too deeply to be a configuration",
                                 "Fix the YAML structure") from None
