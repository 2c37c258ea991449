# SPDX-License-Identifier: Apache-2.0
"""Reading a YAML file the user gave (a configuration, a target file) strictly: a repeated key, a
malformed or non-UTF-8 file is an InvalidConfigError naming the file and the line."""

from __future__ import annotations

from pathlib import Path

import yaml

from helia_aot import user_files
from helia_aot.errors import InvalidConfigError


class AliasRefused(yaml.YAMLError):
    def __init__(self, mark):
        super().__init__()
        self.problem_mark, self.problem = mark, "it uses an alias (*name); write the value out instead"


# A configuration nests a few levels. Past this the file is refused as it is read: YAML's scanner
# slows quadratically with flow nesting ("[" * 10_000 took 5 s, 200_000 would take hours).
MAX_DEPTH = 64


class TooDeep(yaml.YAMLError):
    def __init__(self, mark):
        super().__init__()
        self.problem_mark = mark


class _StrictLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping (the plain loader keeps the
    last one silently, so a repeated section would drop the first one's keys) and any alias: a few
    hundred bytes of nested aliases expand to gigabytes (a configuration never needs one)."""

    _depth = 0

    def fetch_flow_collection_start(self, token_class):
        if self.flow_level >= MAX_DEPTH:
            raise TooDeep(self.get_mark())
        super().fetch_flow_collection_start(token_class)

    def compose_node(self, parent, index):
        if self.check_event(yaml.events.AliasEvent):
            raise AliasRefused(self.peek_event().start_mark)
        if self._depth >= MAX_DEPTH:
            raise TooDeep(self.peek_event().start_mark)
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

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
    raw = user_files.read_bytes(Path(path), what, user_files.YAML_LIMIT, InvalidConfigError, hint)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidConfigError(f"{what} {path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
                                 f"{exc.start})", "Save it as UTF-8") from None
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 (a SafeLoader)
    except AliasRefused as exc:
        raise InvalidConfigError(f"{what} {path} uses a YAML alias at line {exc.problem_mark.line + 1}, which helia-aot "
                                 "does not read (a few nested aliases expand a small file to gigabytes)",
                                 "Write the value out instead of *name") from None
    except TooDeep as exc:
        raise InvalidConfigError(f"{what} {path} nests too deeply to be a configuration (past {MAX_DEPTH} levels at "
                                 f"line {exc.problem_mark.line + 1})", "Fix the YAML structure") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None)
        raise InvalidConfigError(f"{what} {path} is not valid YAML{at}" + (f": {problem}" if problem else ""),
                                 "Fix the YAML syntax") from None
    except RecursionError:
        raise InvalidConfigError(f"{what} {path} nests too deeply to be a configuration",
                                 "Fix the YAML structure") from None
