# SPDX-License-Identifier: Apache-2.0
"""The two golden references: LiteRT's reference kernels and TensorFlow Lite Micro's interpreter.

`test.reference` chooses one. LiteRT is the default; where LiteRT cannot load a model (TFLM's own
person_detect, whose rank-1 biases carry their filter's quantized_dimension, or TFLM-only custom
operators) the golden data falls back to TFLM and the report says so in a warning. TFLM's reference
kernels requantize with gemmlowp's double rounding everywhere, as ns-cmsis-nn does, so for int8
models it is the sharper reference of the two.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import warnings

import numpy as np

from helia_aot.errors import UnsupportedModelError, warning

LITERT = "litert"
TFLM = "tflm"
REFERENCES = (LITERT, TFLM)
DISPLAY_NAMES = {LITERT: "LiteRT", TFLM: "TensorFlow Lite Micro"}

_INSTALL_TFLM = "Install the Python package tflite-micro (it is in helia-aot's requirements)"


class ReferenceRefused(Exception):
    """The reference interpreter cannot load or run the model; str() is its reason."""


def as_declared(value: np.ndarray, shape, row_padding: int | None = None) -> np.ndarray:
    """A reference's output in the shape the module declares for it. For an output with `row_padding`
    (the interface's: a run-time number of rows, LiteRT resizing its output to them), the rows LiteRT left
    out are restored as the module fills them; a value of any other size is a ValueError."""
    shape = tuple(int(d) for d in shape)
    value = np.asarray(value)
    if row_padding is not None and value.ndim == len(shape) and value.shape[1:] == shape[1:] \
            and value.shape[0] <= shape[0]:
        padded = np.full(shape, row_padding, dtype=value.dtype)
        padded[:value.shape[0]] = value
        return padded
    return value.reshape(shape)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 160 else text[:157] + "..."


# --------------------------------------------------------------------------- LiteRT


def litert_interpreter(model_data: bytes):
    """A LiteRT interpreter with the reference op resolver (BUILTIN_REF), tensors allocated."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    try:
        interp = Interpreter(model_content=bytes(model_data),
                             experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
        interp.allocate_tensors()
    except (ValueError, RuntimeError) as exc:
        raise ReferenceRefused(f"LiteRT cannot load the model: {_one_line(exc)}") from None
    return interp


def litert_outputs(model_data: bytes, inputs: list[np.ndarray], interp=None) -> list[np.ndarray]:
    """One invocation of LiteRT (a new interpreter unless `interp` is given)."""
    interp = interp if interp is not None else litert_interpreter(model_data)
    for detail, value in zip(interp.get_input_details(), inputs):
        interp.set_tensor(detail["index"], np.asarray(value).reshape(detail["shape"]).astype(detail["dtype"]))
    try:
        interp.invoke()
    except (ValueError, RuntimeError) as exc:
        raise ReferenceRefused(f"LiteRT cannot run the model: {_one_line(exc)}") from None
    return [np.array(interp.get_tensor(d["index"])) for d in interp.get_output_details()]


# --------------------------------------------------------------------------- TensorFlow Lite Micro


@contextlib.contextmanager
def _c_stderr(lines: list[str]):
    """Collects what C++ code writes to file descriptor 2 meanwhile: TFLM says why it refuses a model
    there (MicroPrintf) and raises only "failed to allocate tensors"."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            lines += [line.strip() for line in sink.read().decode("utf-8", "replace").splitlines() if line.strip()]


def _tflm_reason(exc: BaseException, printed: list[str]) -> str:
    """TFLM's own words first (its kernel's message, without the source path), then the exception."""
    said = [re.sub(r"^\S+\.(cc|h)(:\d+)? ", "", line) for line in printed]
    return _one_line(" ".join([*said[:2], f"({exc})"]) if said else exc)


def _tflm_schema():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated
    return schema_py_generated


def tflm_io_counts(model_data: bytes) -> tuple[int, int]:
    """(inputs, outputs) of subgraph 0: TFLM's Python API has no call that says how many."""
    model = _tflm_schema().Model.GetRootAsModel(bytes(model_data), 0)
    graph = model.Subgraphs(0)
    return graph.InputsLength(), graph.OutputsLength()


def tflm_arena_bytes(model_data: bytes) -> int:
    """An arena TFLM surely fits in: twice every tensor of every subgraph (TFLM's default, ten times
    the model's size, is too small for a small model with large activations, and a model whose every
    operator output is a model output keeps them all live) plus room for its own bookkeeping."""
    schema = _tflm_schema()
    model = schema.Model.GetRootAsModel(bytes(model_data), 0)
    sizes = {schema.TensorType.INT8: 1, schema.TensorType.UINT8: 1, schema.TensorType.BOOL: 1,
             schema.TensorType.INT16: 2, schema.TensorType.FLOAT16: 2, schema.TensorType.INT32: 4,
             schema.TensorType.UINT32: 4, schema.TensorType.FLOAT32: 4, schema.TensorType.INT64: 8,
             schema.TensorType.UINT64: 8, schema.TensorType.FLOAT64: 8}
    total = 0
    for g in range(model.SubgraphsLength()):
        graph = model.Subgraphs(g)
        for t in range(graph.TensorsLength()):
            tensor = graph.Tensors(t)
            elements = int(np.prod([max(int(d), 1) for d in tensor.ShapeAsNumpy()], dtype=np.int64)) \
                if tensor.ShapeLength() else 1
            total += elements * sizes.get(tensor.Type(), 8)
    return 10 * len(model_data) + 2 * total + (1 << 20)


def _crash_signal(data: bytes, arena_bytes: int, num_inputs: int) -> int | None:
    """Loads the model and runs it once on zeros in a forked child first, and returns the signal that
    killed the child, if one did: TFLM's kernels trust the model and can crash the process on one they
    do not expect (its SVDF given no bias reads the missing bias). None where fork() does not exist."""
    if not hasattr(os, "fork"):
        return None
    from tflite_micro.python.tflite_micro import runtime
    sys.stdout.flush()
    sys.stderr.flush()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() beside threads: the child only runs TFLM
        pid = os.fork()
    if pid == 0:  # the child: no output, no Python cleanup, only an exit status
        status = 1
        try:
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            interp = runtime.Interpreter.from_bytes(data, arena_size=arena_bytes)
            for index in range(num_inputs):
                detail = interp.get_input_details(index)
                interp.set_input(np.zeros([int(d) for d in detail["shape"]], detail["dtype"]), index)
            interp.invoke()
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.WTERMSIG(status) if os.WIFSIGNALED(status) else None


class TflmRunner:
    """One TFLM interpreter kept across invocations (variable tensors persist, as in LiteRT), with
    the model's input and output counts."""

    def __init__(self, model_data: bytes):
        try:
            from tflite_micro.python.tflite_micro import runtime
        except ImportError:
            raise UnsupportedModelError("the golden reference tflm needs TensorFlow Lite Micro's Python "
                                        "interpreter, which is not installed", _INSTALL_TFLM) from None
        data = bytes(model_data)
        printed: list[str] = []
        try:
            self.num_inputs, self.num_outputs = tflm_io_counts(data)
            arena = tflm_arena_bytes(data)
            signal = _crash_signal(data, arena, self.num_inputs)
            if signal is not None:
                raise ReferenceRefused(f"TensorFlow Lite Micro crashed (signal {signal}) loading or running the "
                                       "model on zeros")
            with _c_stderr(printed):
                self.interp = runtime.Interpreter.from_bytes(data, arena_size=arena)
        except (ValueError, RuntimeError, IndexError, TypeError) as exc:
            raise ReferenceRefused(f"TensorFlow Lite Micro cannot load the model: "
                                   f"{_tflm_reason(exc, printed)}") from None

    def input_details(self) -> list[dict]:
        return [self.interp.get_input_details(i) for i in range(self.num_inputs)]

    def output_details(self) -> list[dict]:
        return [self.interp.get_output_details(i) for i in range(self.num_outputs)]

    def run(self, inputs: list[np.ndarray]) -> list[np.ndarray]:
        for index, (detail, value) in enumerate(zip(self.input_details(), inputs)):
            shape = tuple(int(d) for d in detail["shape"])
            try:
                self.interp.set_input(np.ascontiguousarray(np.asarray(value).reshape(shape), detail["dtype"]), index)
            except ValueError as exc:  # e.g. a rank-0 input, which TFLM's Python wrapper cannot set
                raise ReferenceRefused(f"TensorFlow Lite Micro cannot take input {index}: {_one_line(exc)}") from None
        printed: list[str] = []
        try:
            with _c_stderr(printed):
                self.interp.invoke()
        except (ValueError, RuntimeError) as exc:
            raise ReferenceRefused(f"TensorFlow Lite Micro cannot run the model: "
                                   f"{_tflm_reason(exc, printed)}") from None
        return [np.array(self.interp.get_output(i)).copy() for i in range(self.num_outputs)]

    def reset(self) -> None:
        """Variable tensors back to their initial values, as right after the interpreter was made."""
        self.interp.reset()


def tflm_outputs(model_data: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """One invocation of a new TFLM interpreter."""
    return TflmRunner(model_data).run(inputs)


# --------------------------------------------------------------------------- choosing one


def outputs(reference: str, model_data: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """One invocation of `reference` on a fresh interpreter; ReferenceRefused if it cannot."""
    if reference == TFLM:
        return tflm_outputs(model_data, inputs)
    return litert_outputs(model_data, inputs)


def sequence_outputs(reference: str, model_data: bytes,
                     sequence: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    """Consecutive invocations of one interpreter of `reference` (variable tensors and resource
    variables carry from one to the next); ReferenceRefused if it cannot run the model."""
    if reference == TFLM:
        runner = TflmRunner(model_data)
        return [runner.run(inputs) for inputs in sequence]
    interp = litert_interpreter(model_data)
    return [litert_outputs(model_data, inputs, interp) for inputs in sequence]


def choose(requested: str, model_data: bytes) -> tuple[str, str | None]:
    """The reference golden data comes from, and the warning to report if it is not `requested`.

    litert (the default) falls back to TFLM when LiteRT cannot load the model; tflm is taken as
    asked. Neither able to load the model is an UnsupportedModelError giving both reasons."""
    if requested not in REFERENCES:
        raise UnsupportedModelError(f"unknown golden reference {requested!r}", f"Use one of {list(REFERENCES)}")
    if requested == TFLM:
        return TFLM, None
    try:
        litert_interpreter(model_data)
        return LITERT, None
    except ReferenceRefused as litert_refusal:
        reason = str(litert_refusal)
    try:
        TflmRunner(model_data)
    except ReferenceRefused as tflm_refusal:
        raise UnsupportedModelError(f"no golden reference runs this model: {reason}; {tflm_refusal}",
                                    "Convert without --test, or supply your own golden data") from None
    except UnsupportedModelError as missing:
        raise UnsupportedModelError(f"{reason}, and the fallback reference tflm is not available: "
                                    f"{missing.message}", _INSTALL_TFLM) from None
    return TFLM, warning(f"golden data from TensorFlow Lite Micro (test.reference tflm) instead of LiteRT: {reason}",
                         "set test.reference tflm (or --reference tflm) to ask for it and drop this warning")
