# SPDX-License-Identifier: Apache-2.0
"""Every element type the IR carries, in one table: its size, its C type and its little-endian numpy
type (how the target reads its bytes). Names are numpy-style strings, so the int16, FP16 and FP32 paths
share one IR."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DType:
    name: str
    bytes: int
    ctype: str
    numpy: str  # little-endian numpy type string
    integer: bool  # an integer with a numeric range (bool is stored as uint8_t but is no number)


_TABLE = (
    DType("int8", 1, "int8_t", "<i1", True),
    DType("uint8", 1, "uint8_t", "<u1", True),
    DType("int16", 2, "int16_t", "<i2", True),
    DType("int32", 4, "int32_t", "<i4", True),
    DType("int64", 8, "int64_t", "<i8", True),
    # Unsigned types of TFLM's Signal front end (energies, filter bank sums, their square roots).
    DType("uint16", 2, "uint16_t", "<u2", True),
    DType("uint32", 4, "uint32_t", "<u4", True),
    DType("uint64", 8, "uint64_t", "<u8", True),
    # ns-cmsis-nn's half type (arm_nn_math_types_flt.h, declared with ARM_NN_ENABLE_F16).
    DType("float16", 2, "float16_t", "<f2", False),
    DType("float32", 4, "float", "<f4", False),
    DType("bool", 1, "uint8_t", "<u1", False),
)

DTYPES = {d.name: d for d in _TABLE}
DTYPE_BYTES = {d.name: d.bytes for d in _TABLE}
C_TYPES = {d.name: d.ctype for d in _TABLE}
INTEGER_DTYPES = tuple(d.name for d in _TABLE if d.integer)
# By C element type (what emitted arrays are declared as): size and numpy type.
CTYPE_BYTES = {d.ctype: d.bytes for d in _TABLE}
CTYPE_NUMPY = {d.ctype: d.numpy for d in _TABLE}
INTEGER_CTYPES = tuple(d.ctype for d in _TABLE if d.integer)
