# SPDX-License-Identifier: Apache-2.0
"""The conversion pipeline: stages that take and return values.

options -> model bytes -> IR (front end) -> resource variables as variable tensors -> verified graph ->
prepared graph -> lowered steps -> memory layout -> operator code -> constant table -> plan and report ->
files, written atomically into OUTDIR.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from . import cmake_export, emit, lowering, options as options_mod, plan_writer, planner, report_html, resources, verifier
from .errors import InvalidModelError, OutputDirError
from .frontend import litert
from .schema import to_json


@dataclass
class ConversionResult:
    output_dir: Path
    prefix: str
    plan: dict
    report: dict
    kernel_symbols: list[str]
    files: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def operators(self) -> list[dict]:
        return self.plan["operators"]

    @property
    def arena_bytes(self) -> int:
        return self.plan["memory"]["scratch_arena_bytes"]


def _read_model(model) -> tuple[bytes, str | None, str]:
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model), None, "<bytes>"
    path = Path(model)
    if not path.exists():
        raise InvalidModelError(f"model file {path} does not exist", "Check the path to the .tflite file")
    if path.is_dir():
        raise InvalidModelError(f"model path {path} is a directory", "Pass the .tflite file itself")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidModelError(f"cannot read model file {path}: {exc.strerror}",
                                "Check the file's permissions") from None
    return data, path.name, str(path)


def _dump_json(obj) -> str:
    return json.dumps(to_json(obj), indent=2, ensure_ascii=False) + "\n"


# What a conversion writes into OUTDIR; an existing OUTDIR holding anything else is not replaced.
_OWN_ENTRY = re.compile(r"^(include|src|test|[A-Za-z_][A-Za-z0-9_]*_(plan|report)\.json|"
                        r"[A-Za-z_][A-Za-z0-9_]*_report\.html|CMakeLists\.txt)$")


def _check_replaceable(final: Path) -> None:
    """OUTDIR is replaced as a whole: refuse one that holds files we did not write (`-o .`)."""
    try:
        foreign = sorted(p.name for p in final.iterdir() if not _OWN_ENTRY.match(p.name))
    except OSError as exc:
        raise OutputDirError(f"cannot list output directory {final}: {exc.strerror}",
                             "Check the -o path and its permissions") from None
    if foreign:
        more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
        raise OutputDirError(f"output directory {final} holds {foreign[0]!r}{more}, which helia_aot did not write, "
                             "and would be replaced as a whole", "Choose a new or empty directory")


def _replace_dir(tmp: Path, final: Path) -> None:
    """Move the finished temp dir into place; the old OUTDIR (if any) is swapped out, never mixed."""
    if final.exists() and not final.is_dir():
        raise OutputDirError(f"output path {final} exists and is not a directory", "Choose another -o path")
    backup = None
    try:
        if final.exists():
            _check_replaceable(final)
            backup = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-", dir=final.parent))
            backup.rmdir()
            os.rename(final, backup)
        try:
            os.rename(tmp, final)
        except OSError:
            if backup is not None:
                os.rename(backup, final)
            raise
    except OSError as exc:
        raise OutputDirError(f"cannot replace output directory {final}: {exc.strerror}",
                             "Check the -o path and its permissions") from None
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)


def _golden_reference(options, data: bytes, model_warnings):
    """The golden reference actually used (LiteRT falls back to TFLM on a model it cannot load),
    with the fallback reported among the warnings."""
    from . import references
    chosen, note = references.choose(options.test.reference, data)
    if note is None:
        return options, model_warnings
    return replace(options, test=replace(options.test, reference=chosen)), [*model_warnings, note]


def convert(model, output_dir, *, prefix: str | None = None, target: str | None = None,
            kernel_library: str | None = None, config=None, with_test_data: bool = False,
            num_test_samples: int | None = None, seed: int | None = None,
            tolerance: int | None = None, iterations: int | None = None,
            module_type: str | None = None, reference: str | None = None) -> ConversionResult:
    """Convert a LiteRT model (path or bytes) into a C module under output_dir.

    `prefix`, `target`, `kernel_library` and `module_type` left at None take the configuration's
    module.prefix, target.name, module.kernel_library and module.type (defaults "model", "host",
    "ns_cmsis_nn", "c"); module_type "cmake" adds a CMakeLists.txt. `reference` (with_test_data) takes
    test.reference ("litert", falling back to "tflm" when LiteRT cannot load the model).
    """
    start = time.perf_counter()
    options = options_mod.resolve(config, prefix=prefix, target=target, kernels=kernel_library,
                                  num_test_samples=num_test_samples, seed=seed, tolerance=tolerance,
                                  iterations=iterations, module_type=module_type, reference=reference)
    data, file_name, source = _read_model(model)
    sha256 = hashlib.sha256(data).hexdigest()

    # Float arithmetic on a damaged model's scales may overflow; every result that matters is checked
    # (the verifier, MultiplierRangeError), so numpy's warnings would only add lines to an error.
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        graph = resources.resolve(litert.load(data, source, options.subgraph), data, source)
        graph, model_warnings = verifier.verify(graph, source)
        graph = lowering.prepare(graph, options, source)
        steps = lowering.lower(graph, options)
    if with_test_data:
        options, model_warnings = _golden_reference(options, data, model_warnings)
    layout = planner.plan_memory(graph, steps, options.target.arena_alignment, options.optimization.rewrites)
    code = emit.render_operators(graph, steps, layout, options)
    table = emit.constant_table(graph, steps, code, options.prefix, layout.persistent)
    plan = plan_writer.build_plan(graph, steps, layout, table, options, file_name, sha256)
    report = plan_writer.build_report(plan, steps, code, layout, table, options, model_warnings, graph)
    files = emit.module_files(graph, steps, code, layout, table, options, sha256)
    prefix = options.prefix
    files[f"{prefix}_plan.json"] = _dump_json(plan)
    files[f"{prefix}_report.json"] = _dump_json(report)
    files[f"{prefix}_report.html"] = report_html.render(to_json(plan), to_json(report))
    if options.module_type == "cmake":
        files["CMakeLists.txt"] = cmake_export.cmake_lists(files, steps, code, options, sha256, with_test_data)

    out = Path(output_dir).resolve()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    except OSError as exc:
        raise OutputDirError(f"cannot create output directory next to {out}: {exc.strerror}",
                             "Check the -o path and its permissions") from None
    try:
        for rel, text in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")  # JSON carries model names as UTF-8, whatever the locale
        written = list(files)
        if with_test_data:
            from . import golden
            written += golden.write_test_data(tmp, data, graph, prefix, options.test,
                                              stateful=layout.persistent_bytes > 0)
        os.chmod(tmp, 0o755)
        _replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    plan_d, report_d = to_json(plan), to_json(report)
    symbols = sorted({c["symbol"] for c in report_d["kernel_calls"]})
    return ConversionResult(output_dir=out, prefix=prefix, plan=plan_d, report=report_d, kernel_symbols=symbols,
                            files=sorted(written), seconds=time.perf_counter() - start)
