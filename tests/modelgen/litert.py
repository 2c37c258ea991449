# SPDX-License-Identifier: Apache-2.0
"""Runs generated models in LiteRT's reference-kernel interpreter."""

from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType

# numpy types of the tensor types a model's inputs and outputs may have, for models LiteRT cannot load.
_NUMPY_TYPES = {
    schema.TensorType.INT8: np.int8, schema.TensorType.UINT8: np.uint8, schema.TensorType.INT16: np.int16,
    schema.TensorType.UINT16: np.uint16, schema.TensorType.INT32: np.int32, schema.TensorType.UINT32: np.uint32,
    schema.TensorType.INT64: np.int64, schema.TensorType.UINT64: np.uint64, schema.TensorType.FLOAT16: np.float16,
    schema.TensorType.FLOAT32: np.float32, schema.TensorType.BOOL: np.bool_,
}


def make_interpreter(data: bytes, preserve_all_tensors: bool = False) -> Interpreter:
    interp = Interpreter(model_content=bytes(data),
                         experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                         experimental_preserve_all_tensors=preserve_all_tensors)
    interp.allocate_tensors()
    return interp


def run_reference(data: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """One invocation with the reference kernels; returns copies of every output."""
    interp = make_interpreter(data)
    details = interp.get_input_details()
    if len(details) != len(inputs):
        raise ValueError(f"model has {len(details)} inputs, {len(inputs)} given")
    for detail, value in zip(details, inputs):
        interp.set_tensor(detail["index"], np.asarray(value, dtype=detail["dtype"]))
    interp.invoke()
    return [interp.get_tensor(d["index"]).copy() for d in interp.get_output_details()]


def _flatbuffer_details(data: bytes, which: str) -> list[dict]:
    """Subgraph 0's inputs or outputs as LiteRT's details list them (name, index, shape, dtype,
    quantization), read from the flatbuffer."""
    graph = schema.ModelT.InitFromPackedBuf(bytes(data), 0).subgraphs[0]
    details = []
    for index in (graph.inputs if which == "inputs" else graph.outputs):
        t = graph.tensors[int(index)]
        q = t.quantization
        scale = float(q.scale[0]) if q is not None and q.scale is not None and len(q.scale) else 0.0
        zero_point = int(q.zeroPoint[0]) if scale and q.zeroPoint is not None and len(q.zeroPoint) else 0
        details.append(dict(name=t.name.decode() if isinstance(t.name, bytes) else str(t.name), index=int(index),
                            shape=np.array(t.shape if t.shape is not None else [], dtype=np.int32),
                            dtype=_NUMPY_TYPES[t.type], quantization=(scale, zero_point)))
    return details


def declared_details(data: bytes) -> tuple[list[dict], list[dict]]:
    """(input details, output details) as the model declares them, before any kernel's Prepare retypes or
    resizes a tensor (LiteRT's ARG_MAX and SHAPE retype their output): the interface a module keeps."""
    return _flatbuffer_details(data, "inputs"), _flatbuffer_details(data, "outputs")


def io_details(data: bytes) -> tuple[list[dict], list[dict]]:
    """(input details, output details) as LiteRT gives them; for a model LiteRT cannot load (TFLM's
    Signal custom operators) the same fields read from the flatbuffer."""
    try:
        interp = make_interpreter(data)
    except (ValueError, RuntimeError):
        return _flatbuffer_details(data, "inputs"), _flatbuffer_details(data, "outputs")
    return interp.get_input_details(), interp.get_output_details()


def random_inputs(data: bytes, generator: np.random.Generator,
                  integer_ranges: dict[str, tuple[int, int]] | None = None,
                  float_ranges: dict[str, tuple[float, float]] | None = None) -> list[np.ndarray]:
    """Random values for each input: integers over their whole range (or the inclusive interval
    `integer_ranges` gives by input name: indices, shapes, codes), bools both ways, floats uniform in
    [-1, 1) (or the interval `float_ranges` gives by input name)."""
    out = []
    for detail in io_details(data)[0]:
        dtype = np.dtype(detail["dtype"])
        shape = tuple(detail["shape"])
        # uint64 values beyond int64 need numpy to draw them as uint64 (other types keep the int64 draw,
        # so their samples stay what they were).
        wide = {"dtype": np.uint64} if dtype == np.uint64 else {}
        if integer_ranges and detail["name"] in integer_ranges:
            lo, hi = integer_ranges[detail["name"]]
            out.append(generator.integers(lo, hi, size=shape, endpoint=True, **wide).astype(dtype))
        elif dtype.kind == "b":
            out.append(generator.integers(0, 1, size=shape, endpoint=True).astype(dtype))
        elif dtype.kind in "iu":
            info = np.iinfo(dtype)
            out.append(generator.integers(info.min, info.max, size=shape,
                                          endpoint=True, **wide).astype(dtype))
        else:
            lo, hi = (float_ranges or {}).get(detail["name"], (-1.0, 1.0))
            out.append(generator.uniform(lo, hi, size=shape).astype(dtype))
    return out
