# SPDX-License-Identifier: Apache-2.0
"""Differential validation of operator rules against the references (issue #30): for an operator, a
generator walks the quantization parameters, zero points, scales, attribute values and shapes around
each of its rules' boundaries (tests/modelgen builds every case), asks LiteRT's reference kernels whether
they allocate and invoke the case (TFLM where LiteRT refuses it or cannot load it), and puts helia-aot
beside that answer:

- a reference runs it: helia-aot converts it and the host build matches that reference within the
  variant's tolerance, or refuses it by a rule whose declared source is a documented limit (kernel or
  helia-aot; the refusal message ends with its source's tag), or by the other reference's own check where
  the references split (LiteRT runs what TFLM's check refuses: counted apart, each a case to decide; TFLM
  runs what LiteRT's check refuses: the rule must say what TFLM does without the check, "TFLM unchecked",
  reading or writing past a tensor or disregarding part of the model, and is counted apart);
- both references refuse it: helia-aot refuses it in one line.

`run_operator` returns the outcomes, `tally` the per-operator counts; tests/e2e/test_differential.py runs a
bounded number of cases per operator, tools/differential runs more."""

from __future__ import annotations

import dataclasses
import faulthandler
import itertools
import math
import multiprocessing
import pathlib
import traceback
from typing import Callable, Iterator

import numpy as np

import helia_aot
from helia_aot.errors import HeliaError
from helia_aot.golden import references
from tests.e2e import harness
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import declared_details, make_interpreter, random_inputs

SAMPLES = 3
# LiteRT errors that mean it cannot load the model at all (an operator it does not register), as opposed to
# a kernel's Prepare refusing the case: only then is TFLM asked instead.
LITERT_CANNOT_LOAD = ("unresolved custom op", "Didn't find op for builtin opcode", "Encountered unresolved")
INTEGER_BOUND = 1  # codes, as tests/e2e/test_single_op.py
FLOAT_RELATIVE_BOUND = 1e-5  # of the output's range over the samples
FLOAT_ABSOLUTE_FLOOR = 1e-6
# The source kinds a refusal of a case a reference runs may name (a documented limit, with its reason).
LIMIT_KINDS = ("(kernel limit:", "(helia-aot limit)")
# A refusal of a case whose reference result is undefined (the reference runs it unchecked into undefined
# behaviour, past a tensor, or leaves the output unwritten): counted apart from the limits, never as a match.
UNDEFINED_KIND = "(reference undefined:"
# A refusal by a rule TFLM's kernel enforces, of a case LiteRT runs: the references disagree and helia-aot
# follows TFLM (counted apart, never silently: each is a case to decide, issue #30).
TFLM_RULE = "(TFLM:"
# A refusal by a rule LiteRT's kernel enforces, of a case only TFLM runs (TFLM lacks the check).
LITERT_RULES = ("(LiteRT:", "(LiteRT and TFLM:")
# Such a rule's statement of what TFLM computes without the check (Source.tflm_unchecked): no result to match.
TFLM_UNCHECKED = "; TFLM unchecked)"


@dataclasses.dataclass(frozen=True)
class Case:
    op: str
    name: str
    model: bytes
    boundary: str  # what this case sets near which rule, for the report
    # Inputs whose values the case fixes (by name), e.g. a run-time output_shape; the rest are drawn.
    fixed: dict = dataclasses.field(default_factory=dict)
    # Elements a reference writes, by output position (an index expression, e.g. a slice), where it leaves
    # the rest unwritten (TFLM's SignalEnergy outside start_index..end_index - 1 holds arena garbage);
    # only these are compared. Outputs not named are compared whole.
    written: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Outcome:
    case: Case
    reference: str | None  # "LiteRT", "TFLM" or None (both refuse)
    reference_error: str = ""
    refusal: str = ""  # helia-aot's one-line refusal, empty when it converted
    max_diff: float | None = None
    bound: float | None = None
    problem: str = ""  # why this outcome breaks the contract (empty: it holds)
    tflm_split: bool = False  # LiteRT runs it, TFLM refuses it, helia-aot refuses it with TFLM's rule
    litert_split: bool = False  # TFLM runs it unchecked, LiteRT's check refuses it, helia-aot refuses it with that rule

    @property
    def converted(self) -> bool:
        return not self.refusal


@dataclasses.dataclass
class Counts:
    generated: int = 0
    accepted_by_reference: int = 0
    accepted_by_tflm_only: int = 0
    converted_and_matched: int = 0
    refused_by_both_and_us: int = 0
    reference_runs_we_refuse_as_limit: int = 0
    reference_undefined_we_refuse: int = 0  # a reference runs it into undefined behaviour; we refuse, naming it
    litert_runs_we_refuse_as_tflm: int = 0  # LiteRT runs it, TFLM's check (our rule's source) refuses it
    tflm_runs_we_refuse_as_litert: int = 0  # TFLM runs it unchecked, LiteRT's check (our rule's source) refuses it
    reference_runs_we_refuse: int = 0  # must be 0: refused without a declared limit
    mismatched: int = 0  # must be 0
    both_refuse_we_convert: int = 0  # must be 0
    limits: set = dataclasses.field(default_factory=set)

    def row(self) -> list[str]:
        return [str(v) for v in (self.generated, self.accepted_by_reference, self.accepted_by_tflm_only,
                                 self.converted_and_matched, self.refused_by_both_and_us,
                                 self.reference_runs_we_refuse_as_limit, self.reference_undefined_we_refuse,
                                 self.litert_runs_we_refuse_as_tflm,
                                 self.tflm_runs_we_refuse_as_litert,
                                 self.reference_runs_we_refuse,
                                 self.mismatched, self.both_refuse_we_convert)]


HEADER = ["operator", "generated", "ref runs", "TFLM only", "matched", "both+we refuse", "we refuse (limit)",
          "ref undefined, we refuse", "we refuse as TFLM", "TFLM unchecked, we refuse", "we refuse (no limit)",
          "mismatched",
          "we accept, refs refuse"]


# --------------------------------------------------------------------------- references, in a child process

def _fix(sample: list[np.ndarray], names: list[str], fixed: dict) -> list[np.ndarray]:
    """The sample with the inputs `fixed` names set; `names` from the model's declaration (TFLM's details have
    none)."""
    return [np.asarray(fixed[name], dtype=v.dtype).reshape(v.shape) if name in fixed else v
            for v, name in zip(sample, names)]


def _resized_output(model: bytes, outputs: list[np.ndarray], row_padding: dict[int, tuple]) -> str:
    """Which output LiteRT resized to another number of elements than the model declares (the module, for a
    run-time row count), if one."""
    for k, (detail, value) in enumerate(zip(declared_details(model)[1], outputs)):
        if k in row_padding:
            detail = dict(detail, shape=row_padding[k][0])
        if value.size != math.prod(int(d) for d in detail["shape"]):
            return (f"LiteRT resizes output '{detail['name']}' to {list(value.shape)}, the model declares "
                    f"{[int(d) for d in detail['shape']]}")
    return ""


def _restore_rows(outputs: list[np.ndarray], row_padding: dict[int, tuple]) -> list[np.ndarray]:
    """LiteRT's outputs with the rows it resized away restored where the module's interface declares a
    run-time row count (row_padding: output index -> (the module's shape, the value of the rows past it))."""
    restored = []
    for k, value in enumerate(outputs):
        if k in row_padding:
            try:
                value = references.as_declared(value, *row_padding[k])
            except ValueError:
                pass  # another size: _resized_output reports it
        restored.append(value)
    return restored


def _reference_child(model: bytes, seed: int, fixed: dict, row_padding: dict[int, tuple], conn) -> None:
    """LiteRT, else TFLM, on SAMPLES seeded inputs; a TFLITE_CHECK abort kills only this child."""
    faulthandler.disable()  # an abort is an answer here (the parent reports it), not a crash to dump
    generator = np.random.default_rng(seed)
    try:
        names = [d["name"] for d in declared_details(model)[0]]
        try:
            interp = make_interpreter(model)
            samples = [_fix(random_inputs(model, generator), names, fixed) for _ in range(SAMPLES)]
            outputs = []
            for sample in samples:
                for detail, value in zip(interp.get_input_details(), sample):
                    interp.set_tensor(detail["index"], value)
                interp.invoke()
                outputs.append(_restore_rows([interp.get_tensor(d["index"]).copy()
                                              for d in interp.get_output_details()], row_padding))
            resized = _resized_output(model, outputs[0], row_padding)
            if resized:
                # LiteRT's Prepare changed the model's interface; a module keeps the declared one, as TFLM does.
                raise RuntimeError(resized)
            conn.send(("LiteRT", samples, outputs, ""))
            return
        except Exception as exc:  # noqa: BLE001 - any LiteRT failure is its refusal
            litert_error = " ".join(str(exc).split())[:300]
        try:
            from tests.e2e import tflm
            from helia_aot.golden.references import TflmRunner
            runner = TflmRunner(model)
            samples = []
            for _ in range(SAMPLES):
                details = runner.input_details()
                samples.append(_fix([_draw(generator, d) for d in details], names, fixed))
            outputs = tflm.outputs(model, samples)
            conn.send(("TFLM", samples, outputs, litert_error))
        except Exception as exc:  # noqa: BLE001 - any TFLM failure is its refusal
            conn.send((None, None, None, f"LiteRT: {litert_error}; TFLM: {' '.join(str(exc).split())[:300]}"))
    except BaseException:  # pragma: no cover - reported by the parent
        conn.send((None, None, None, "reference child failed: " + traceback.format_exc(limit=2)))


def _draw(generator: np.random.Generator, detail: dict) -> np.ndarray:
    dtype, shape = np.dtype(detail["dtype"]), tuple(int(x) for x in detail["shape"])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        # drawn in the input's own dtype: uint64's range is past int64, numpy's default
        return generator.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
    return generator.uniform(-1.0, 1.0, size=shape).astype(dtype)


def _receive(conn, timeout: float = 120.0):
    """The child's answer, or None when it ended without one (a failed check aborted it) or timed out."""
    try:
        return conn.recv() if conn.poll(timeout) else None
    except EOFError:
        return None


def _tflm_child(model: bytes, conn) -> None:
    faulthandler.disable()
    try:
        from helia_aot.golden.references import TflmRunner
        runner = TflmRunner(model)
        generator = np.random.default_rng(0)
        runner.run([_draw(generator, d) for d in runner.input_details()])
        conn.send(False)
    except Exception:  # noqa: BLE001 - any TFLM failure is its refusal
        conn.send(True)


def _tflm_refuses(model: bytes) -> bool:
    """Whether TFLM refuses the model (in a child: a failed check may abort)."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_tflm_child, args=(model, child))
    proc.start()
    child.close()
    result = _receive(parent)
    proc.join(10)
    return True if result is None else result


def reference(model: bytes, seed: int, fixed: dict | None = None, row_padding: dict[int, tuple] | None = None,
              ) -> tuple[str | None, list | None, list | None, str]:
    """(who ran it, samples, outputs, why the other or both refused). `row_padding`: output index -> (shape,
    fill) of the outputs whose rows past a run-time count the module pads (its interface's), LiteRT's resized
    outputs restored to them."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_reference_child, args=(model, seed, fixed or {}, row_padding or {}, child))
    proc.start()
    child.close()
    result = _receive(parent)
    proc.join(10)
    if result is None:
        return None, None, None, f"reference process ended with status {proc.exitcode} (a check aborted it)"
    return result


# --------------------------------------------------------------------------- helia-aot's side

def evaluate(case: Case, session: harness.E2ESession, library: harness.KernelLibrary, seed: int) -> Outcome:
    outcome = Outcome(case, None)
    out_dir = session.root / "differential" / case.name
    row_padding = {}
    try:
        result = helia_aot.convert(case.model, out_dir, prefix=harness.PREFIX, target="host")
        row_padding = {k: (tuple(o["shape"]), o["row_padding"])
                       for k, o in enumerate(result.plan["interface"]["outputs"]) if o["row_padding"] is not None}
    except HeliaError as exc:
        outcome.refusal = str(exc.args[0]) if exc.args else str(exc)
        if "\n" in outcome.refusal:
            outcome.problem = "refusal is not one line"
    who, samples, ref_outputs, why = reference(case.model, seed, case.fixed, row_padding)
    outcome.reference, outcome.reference_error = who, why
    if who is None:
        if outcome.converted:
            outcome.problem = f"both references refuse ({why}) but helia-aot converts it"
        return outcome
    if not outcome.converted:
        if who == "TFLM" and why and not any(m in why for m in LITERT_CANNOT_LOAD) and any(
                tag in outcome.refusal for tag in LITERT_RULES):
            # LiteRT's check refuses it and defines the operator; TFLM's kernel lacks the check (e.g. no groups
            # test: it reads past the filter). helia-aot refuses by that LiteRT rule, which must say what TFLM
            # computes instead.
            outcome.litert_split = True
            if TFLM_UNCHECKED not in outcome.refusal:
                outcome.problem = (f"TFLM runs it and helia-aot refuses it by LiteRT's check without saying what TFLM "
                                   f"does unchecked: {outcome.refusal}")
        elif who == "LiteRT" and TFLM_RULE in outcome.refusal:
            outcome.tflm_split = _tflm_refuses(case.model)
            if not outcome.tflm_split:
                outcome.problem = f"LiteRT and TFLM run it but helia-aot refuses it: {outcome.refusal}"
        elif not any(kind in outcome.refusal for kind in LIMIT_KINDS + (UNDEFINED_KIND,)):
            outcome.problem = f"{who} runs it but helia-aot refuses it with no declared limit: {outcome.refusal}"
        return outcome
    model = harness.ModelUnderTest(name=f"diff_{case.name}", kind="differential", model_bytes=case.model,
                                   seed=seed, tolerance=INTEGER_BOUND)
    model.__dict__["samples"] = samples  # cached_property: the samples the reference ran
    model.__dict__["reference"] = ref_outputs
    # The module's shape where it gives a run-time row count room (the model may declare fewer rows).
    model.__dict__["output_infos"] = [harness.TensorInfo(i.name, row_padding[k][0], i.dtype) if k in row_padding else i
                                      for k, i in enumerate(model.output_infos)]
    exe = session.root / "differential-bin" / case.name
    exe.parent.mkdir(parents=True, exist_ok=True)
    harness.build_host_executable(out_dir, library, exe)
    got = harness.run_host_executable(exe, model)
    ranges = harness.output_ranges(ref_outputs)

    def written(outputs):
        return [[o[..., case.written[i]] if i in case.written else o for i, o in enumerate(sample)]
                for sample in outputs]

    def declared(outputs):
        return [[harness.as_declared(r, info) for r, info in zip(sample, model.output_infos)] for sample in outputs]

    diffs = harness.per_output_max_diff(written(got), written(declared(ref_outputs)))
    worst = 0.0
    for diff, rng, info in zip(diffs, ranges, model.output_infos):
        bound = (max(FLOAT_RELATIVE_BOUND * rng, FLOAT_ABSOLUTE_FLOOR) if info.dtype.kind == "f" else INTEGER_BOUND)
        worst = max(worst, diff)
        if diff > bound:
            outcome.problem = f"max |diff| {diff:g} against {who} exceeds {bound:g}"
        outcome.bound = bound
    outcome.max_diff = worst
    return outcome


def tally(outcomes: list[Outcome]) -> Counts:
    counts = Counts()
    for o in outcomes:
        counts.generated += 1
        if o.reference is not None:
            counts.accepted_by_reference += 1
            counts.accepted_by_tflm_only += o.reference == "TFLM"
            if o.converted:
                if o.problem:
                    counts.mismatched += 1
                else:
                    counts.converted_and_matched += 1
            elif o.problem:
                counts.reference_runs_we_refuse += 1
            elif o.tflm_split:
                counts.litert_runs_we_refuse_as_tflm += 1
            elif o.litert_split:
                counts.tflm_runs_we_refuse_as_litert += 1
            elif UNDEFINED_KIND in o.refusal:
                counts.reference_undefined_we_refuse += 1
            else:
                counts.reference_runs_we_refuse_as_limit += 1
                start = max(o.refusal.rfind(kind) for kind in LIMIT_KINDS)
                counts.limits.add(o.refusal[start + 1:].rstrip(")"))
        elif o.converted:
            counts.both_refuse_we_convert += 1
        else:
            counts.refused_by_both_and_us += 1
    return counts


# --------------------------------------------------------------------------- generators

def _grid(rng: np.random.Generator, axes: dict[str, list], limit: int) -> Iterator[dict]:
    """`limit` points of the product of the axes: the first point of every axis value (each value is
    reached at least once when limit allows), then seeded draws."""
    names = list(axes)
    points = list(itertools.product(*(axes[n] for n in names)))
    order = rng.permutation(len(points))
    seen_values = {n: set() for n in names}
    chosen, rest = [], []
    for k in order:
        point = dict(zip(names, points[k]))
        if any(repr(point[n]) not in seen_values[n] for n in names):
            chosen.append(point)
            for n in names:
                seen_values[n].add(repr(point[n]))
        else:
            rest.append(point)
    yield from (chosen + rest)[:limit]


def _qact(rng, dtype: str, zp_nonzero: bool = False):
    """An activation's (scale, zero point) for dtype: int16 symmetric unless asked not to be."""
    scale = float(rng.uniform(0.01, 0.1))
    if dtype == "int8":
        return scale, int(rng.integers(-20, 20))
    if dtype == "int16":
        return scale / 256, (3 if zp_nonzero else 0)
    if dtype == "uint8":
        return scale, int(rng.integers(108, 148))
    if dtype == "int32":
        return scale / 65536, 0
    return None, None


def _name(op: str, k: int, point: dict) -> str:
    return f"{op.lower()}_{k:03d}"


def softmax_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    forms = {  # (input dtype, output dtype): output (scale, zero point) pairs around the rule's boundary
        ("int8", "int8"): [(1 / 256, -128), (1 / 256 * 1.0005, -128), (1 / 256 * 1.01, -128), (1 / 256, -127)],
        ("int8", "int16"): [(1 / 65536, -32768), (1 / 65536 * 1.0005, -32768), (1 / 65536 * 1.002, -32768),
                            (1 / 65536, 0), (1 / 32768, 0)],
        ("int16", "int16"): [(1 / 32768, 0), (1 / 32768 * 1.0005, 0), (1 / 32768 * 1.002, 0), (1 / 32768, 1)],
        ("float32", "float32"): [(None, None)],
    }
    axes = {"form": [(k, v) for k, vs in forms.items() for v in vs], "beta": [1.0, 0.5],
            "shape": [(1, 10), (2, 3, 7)], "input_zp": [False, True]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        (din, dout), (oscale, ozp) = p["form"]
        b = ModelBuilder()
        iscale, izp = _qact(rng, din, zp_nonzero=p["input_zp"])
        x = b.input("x", p["shape"], dtype=din, scale=iscale, zero_point=izp)
        y = b.tensor("y", p["shape"], dtype=dout, scale=oscale, zero_point=ozp)
        b.op("SOFTMAX", [x], [y], {"beta": p["beta"]})
        b.output(y)
        yield Case("SOFTMAX", _name("SOFTMAX", k, p), b.build(),
                   f"{din}->{dout} out scale {oscale} zp {ozp}, beta {p['beta']}, shape {p['shape']}")


def _conv_out(size: int, k: int, stride: int, dilation: int, padding: str) -> int:
    effective = (k - 1) * dilation + 1
    return math.ceil(size / stride) if padding == "SAME" else math.ceil((size - effective + 1) / stride)


def conv_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # channels (input, filter, output): one group, two groups, 3 outputs over 2 groups, 6 inputs over 4
    axes = {"dtype": ["int8", "int16", "float32"], "channels": [(4, 4, 4), (6, 3, 4), (4, 2, 2), (6, 3, 3),
                                                                 (6, 4, 2)],
            "kernel": [1, 3], "stride": [1, 2], "dilation": [1, 2], "padding": ["SAME", "VALID"],
            "activation": ["NONE", "RELU6", "TANH"], "weight_zp": [0, 2]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        cin, cf, cout = p["channels"]
        dtype, ksz = p["dtype"], p["kernel"]
        oh = _conv_out(7, ksz, p["stride"], p["dilation"], p["padding"])
        if oh <= 0:
            continue
        b = ModelBuilder()
        xs, xz = _qact(rng, dtype)
        x = b.input("x", (1, 7, 7, cin), dtype=dtype, scale=xs, zero_point=xz)
        wf = rng.uniform(-1, 1, size=(cout, ksz, ksz, cf)).astype(np.float32)
        if dtype == "float32":
            w = b.const("w", wf)
            bias = b.const("b", rng.uniform(-0.5, 0.5, size=cout).astype(np.float32))
            ys, yz = None, None
        else:
            wscales = [float(s) for s in rng.uniform(0.005, 0.02, size=cout)]
            w = b.const("w", rng.integers(-127, 128, size=(cout, ksz, ksz, cf)), dtype="int8", scale=wscales,
                        zero_point=p["weight_zp"], quantized_dimension=0)
            bias_scales = [xs * s for s in wscales]
            bias_dtype = "int32" if dtype == "int8" else "int64"
            bias = b.const("b", rng.integers(-1000, 1000, size=cout), dtype=bias_dtype, scale=bias_scales,
                           zero_point=0)
            ys, yz = _qact(rng, dtype)
            ys *= 8
        y = b.tensor("y", (1, oh, oh, cout), dtype=dtype, scale=ys, zero_point=yz)
        b.op("CONV_2D", [x, w, bias], [y], {"padding": p["padding"], "stride_h": p["stride"],
                                             "stride_w": p["stride"], "dilation_h_factor": p["dilation"],
                                             "dilation_w_factor": p["dilation"],
                                             "fused_activation_function": p["activation"]})
        b.output(y)
        yield Case("CONV_2D", _name("CONV_2D", k, p), b.build(),
                   f"{dtype} channels in/filter/out {p['channels']}, {ksz}x{ksz} stride {p['stride']} dilation "
                   f"{p['dilation']} {p['padding']}, {p['activation']}, weight zp {p['weight_zp']}")


def depthwise_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # channels (input, output): multiplier 1, multiplier 2, 5 outputs over 2 inputs (not a multiple)
    axes = {"dtype": ["int8", "int16", "float32"], "channels": [(4, 4), (2, 4), (2, 5)], "kernel": [1, 3],
            "stride": [1, 2], "dilation": [1, 2], "padding": ["SAME", "VALID"], "activation": ["NONE", "RELU", "TANH"],
            "weight_zp": [0, 2]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        cin, cout = p["channels"]
        dtype, ksz = p["dtype"], p["kernel"]
        oh = _conv_out(7, ksz, p["stride"], p["dilation"], p["padding"])
        if oh <= 0:
            continue
        b = ModelBuilder()
        xs, xz = _qact(rng, dtype)
        x = b.input("x", (1, 7, 7, cin), dtype=dtype, scale=xs, zero_point=xz)
        if dtype == "float32":
            w = b.const("w", rng.uniform(-1, 1, size=(1, ksz, ksz, cout)).astype(np.float32))
            bias = b.const("b", rng.uniform(-0.5, 0.5, size=cout).astype(np.float32))
            ys, yz = None, None
        else:
            wscales = [float(v) for v in rng.uniform(0.005, 0.02, size=cout)]
            w = b.const("w", rng.integers(-127, 128, size=(1, ksz, ksz, cout)), dtype="int8", scale=wscales,
                        zero_point=p["weight_zp"], quantized_dimension=3)
            bias = b.const("b", rng.integers(-1000, 1000, size=cout), dtype="int32" if dtype == "int8" else "int64",
                           scale=[xs * v for v in wscales], zero_point=0)
            ys, yz = _qact(rng, dtype)
            ys *= 4
        y = b.tensor("y", (1, oh, oh, cout), dtype=dtype, scale=ys, zero_point=yz)
        b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y],
             {"padding": p["padding"], "stride_h": p["stride"], "stride_w": p["stride"],
              "dilation_h_factor": p["dilation"], "dilation_w_factor": p["dilation"],
              "depth_multiplier": max(cout // cin, 1), "fused_activation_function": p["activation"]})
        b.output(y)
        yield Case("DEPTHWISE_CONV_2D", _name("DEPTHWISE_CONV_2D", k, p), b.build(),
                   f"{dtype} channels in/out {p['channels']}, {ksz}x{ksz} stride {p['stride']} dilation "
                   f"{p['dilation']} {p['padding']}, {p['activation']}, weight zp {p['weight_zp']}")


# A broadcast of five merged dimension groups: past the 4-D entries, into the any-rank inline loop (LiteRT runs it).
PAST_FOUR_GROUPS = ((2, 1, 2, 1, 2, 3), (1, 2, 1, 2, 1, 3))


def _broadcast(a, b):
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


def binary_cases(op: str) -> Callable[[np.random.Generator, int], Iterator[Case]]:
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        axes = {"dtype": ["int8", "int16", "float32"],
                "shapes": [((1, 4, 4, 3), (1, 4, 4, 3)), ((1, 4, 4, 3), (3,)), ((2, 1, 3), (1, 4, 1)),
                           ((1, 2, 1, 2, 3), (1, 1, 2, 1, 3)), ((2, 3), (4, 3)), PAST_FOUR_GROUPS],
                "activation": ["NONE", "RELU", "TANH"], "zp16": [False, True], "pot": [False, True]}
        for k, p in enumerate(_grid(rng, axes, limit)):
            dtype = p["dtype"]
            sa, sb = p["shapes"]
            out = _broadcast(sa, sb) or sa
            b = ModelBuilder()
            qa, qb, qy = (_qact(rng, dtype, p["zp16"] and i == 0) for i in range(3))
            if dtype == "int16" and p["pot"]:
                qa, qb, qy = (2.0 ** -10, qa[1]), (2.0 ** -12, 0), (2.0 ** -10, 0)
            x1 = b.input("a", sa, dtype=dtype, scale=qa[0], zero_point=qa[1])
            x2 = b.input("b", sb, dtype=dtype, scale=qb[0], zero_point=qb[1])
            y = b.tensor("y", out, dtype=dtype, scale=qy[0], zero_point=qy[1])
            options = {"fused_activation_function": p["activation"]}
            if op in ("ADD", "SUB") and dtype == "int16":
                options["pot_scale_int16"] = bool(p["pot"])
            b.op(op, [x1, x2], [y], options)
            b.output(y)
            yield Case(op, _name(op, k, p), b.build(),
                       f"{dtype} shapes {sa} and {sb}, {p['activation']}, int16 zp {p['zp16']}, pot {p['pot']}")
    return cases


def fully_connected_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # (2, 9): two rows of depth 8 and two inputs no row reads; (1, 7): no whole row (the output's one row is not
    # what LiteRT computes: OUTPUT_SHAPE_RULE).
    axes = {"dtype": ["int8", "int16", "float32"], "input": [(1, 8), (2, 8), (1, 2, 4), (1, 7), (2, 9)],
            "activation": ["NONE", "RELU", "TANH"], "weight_zp": [0, 1], "units": [3, 5], "per_channel": [False, True]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        dtype, units = p["dtype"], p["units"]
        depth = 8
        batches = max(int(np.prod(p["input"])) // depth, 1)
        b = ModelBuilder()
        xs, xz = _qact(rng, dtype)
        x = b.input("x", p["input"], dtype=dtype, scale=xs, zero_point=xz)
        if dtype == "float32":
            w = b.const("w", rng.uniform(-1, 1, size=(units, depth)).astype(np.float32))
            bias = b.const("b", rng.uniform(-1, 1, size=units).astype(np.float32))
            ys, yz = None, None
        else:
            ws = [float(v) for v in rng.uniform(0.005, 0.02, size=units)] if p["per_channel"] else 0.01
            w = b.const("w", rng.integers(-127, 128, size=(units, depth)), dtype="int8", scale=ws,
                        zero_point=p["weight_zp"], quantized_dimension=0)
            bias = b.const("b", rng.integers(-500, 500, size=units), dtype="int32" if dtype == "int8" else "int64",
                           scale=[xs * v for v in ws] if p["per_channel"] else xs * ws, zero_point=0)
            ys, yz = _qact(rng, dtype)
            ys *= 4
        y = b.tensor("y", (batches, units), dtype=dtype, scale=ys, zero_point=yz)
        b.op("FULLY_CONNECTED", [x, w, bias], [y], {"fused_activation_function": p["activation"]})
        b.output(y)
        yield Case("FULLY_CONNECTED", _name("FULLY_CONNECTED", k, p), b.build(),
                   f"{dtype} input {p['input']}, {units} units, {p['activation']}, weight zp {p['weight_zp']}, "
                   f"per-channel {p['per_channel']}")


def pool_cases(op: str) -> Callable[[np.random.Generator, int], Iterator[Case]]:
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        # requant: the output quantized differently (TFLM refuses, LiteRT pools the codes); window "wide": a filter
        # over 2^16 columns (LiteRT refuses it; TFLM keeps the padding in int16 and misplaces it).
        axes = {"dtype": ["int8", "int16", "float32"], "filter": [2, 3], "stride": [1, 2],
                "padding": ["SAME", "VALID"], "requant": [False, True], "activation": ["NONE", "RELU", "TANH"],
                "window": ["fits", "wide"]}
        for k, p in enumerate(_grid(rng, axes, limit)):
            dtype = p["dtype"]
            padding = p["padding"] if p["window"] == "fits" else "SAME"  # VALID would leave no column
            oh = _conv_out(6, p["filter"], p["stride"], 1, padding)
            ow = oh if p["window"] == "fits" else _conv_out(6, (1 << 16) + 1, p["stride"], 1, padding)
            b = ModelBuilder()
            xs, xz = _qact(rng, dtype)
            x = b.input("x", (1, 6, 6, 3), dtype=dtype, scale=xs, zero_point=xz)
            ys, yz = (xs, xz)
            if p["requant"] and dtype != "float32":
                ys, yz = xs * 1.5, (xz + 1 if dtype == "int8" else 0)
            y = b.tensor("y", (1, oh, ow, 3), dtype=dtype, scale=ys, zero_point=yz)
            b.op(op, [x], [y], {"padding": padding, "stride_h": p["stride"], "stride_w": p["stride"],
                                "filter_height": p["filter"],
                                "filter_width": p["filter"] if p["window"] == "fits" else (1 << 16) + 1,
                                "fused_activation_function": p["activation"]})
            b.output(y)
            yield Case(op, _name(op, k, p), b.build(),
                       f"{dtype} {p['filter']}x{p['filter']} window {p['window']} stride {p['stride']} {padding}, "
                       f"requantizing {p['requant']}, {p['activation']}")
    return cases


def quantize_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"form": [("float32", "int8"), ("float32", "int16"), ("int8", "int8"), ("int16", "int16"),
                     ("int8", "int16"), ("int16", "int8"), ("uint8", "int8"), ("int8", "uint8"), ("uint8", "uint8"),
                     ("uint8", "int16"), ("int32", "int8"), ("int8", "int32"), ("int16", "int32"), ("int32", "int16"),
                     ("int16", "uint8")],
            "output_zp": ["fits", "nonzero"], "scale_ratio": [1.0, 0.37, 3.1], "shape": [(1, 16), (2, 3, 5)],
            "output": ["same shape", "reshaped", "fewer elements"]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        din, dout = p["form"]
        out_shape = {"same shape": p["shape"], "reshaped": (int(np.prod(p["shape"])),),
                     "fewer elements": p["shape"][:-1] + (p["shape"][-1] - 1,)}[p["output"]]
        b = ModelBuilder()
        xs, xz = _qact(rng, din)
        x = b.input("x", p["shape"], dtype=din, scale=xs, zero_point=xz)
        base = xs if xs is not None else float(rng.uniform(0.005, 0.02))
        # Output scales that keep the codes in range: the dtypes' widths apart (2^bits of input over output).
        bits = {"uint8": 8, "int8": 8, "int16": 16, "int32": 32}
        ys = base * p["scale_ratio"] * (2.0 ** (bits[din] - bits[dout]) if din != "float32" else 1.0)
        yz = (int(rng.integers(-10, 10)) if dout == "int8" else int(rng.integers(118, 138)) if dout == "uint8"
              else 5 if p["output_zp"] == "nonzero" else 0)
        y = b.tensor("y", out_shape, dtype=dout, scale=ys, zero_point=yz)
        b.op("QUANTIZE", [x], [y])
        b.output(y)
        yield Case("QUANTIZE", _name("QUANTIZE", k, p), b.build(),
                   f"{din}->{dout} output zp {yz}, scale ratio {p['scale_ratio']}, shape {p['shape']} -> {out_shape}")


def dequantize_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # int32: neither reference dequantizes it (the operand dtype boundary)
    axes = {"dtype": ["int8", "int16", "int32"], "zp16": [False, True], "shape": [(1, 16), (2, 3, 5)]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        b = ModelBuilder()
        xs, xz = _qact(rng, p["dtype"], zp_nonzero=p["zp16"]) if p["dtype"] != "int32" else (0.05, 1)
        x = b.input("x", p["shape"], dtype=p["dtype"], scale=xs, zero_point=xz)
        y = b.tensor("y", p["shape"], dtype="float32")
        b.op("DEQUANTIZE", [x], [y])
        b.output(y)
        yield Case("DEQUANTIZE", _name("DEQUANTIZE", k, p), b.build(),
                   f"{p['dtype']} zp {xz}, shape {p['shape']}")


def concatenation_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"dtype": ["int8", "int16", "float32"], "axis": [0, 1, -1, 2], "quant": ["shared", "scale", "zp"],
            "activation": ["NONE", "RELU", "RELU6"], "inputs": [2, 3]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        dtype, axis = p["dtype"], p["axis"]
        shape = [2, 3, 4]
        b = ModelBuilder()
        qs, qz = _qact(rng, dtype)
        refs, total = [], 0
        for i in range(p["inputs"]):
            part = list(shape)
            part[axis] = i + 1
            total += i + 1
            s, z = qs, qz
            if i == 1 and dtype != "float32" and p["quant"] == "scale":
                s = qs * 1.25
            if i == 1 and dtype == "int8" and p["quant"] == "zp":
                z = qz + 1
            refs.append(b.input(f"x{i}", part, dtype=dtype, scale=s, zero_point=z))
        out = list(shape)
        out[axis] = total
        y = b.tensor("y", out, dtype=dtype, scale=qs, zero_point=qz)
        b.op("CONCATENATION", refs, [y], {"axis": axis, "fused_activation_function": p["activation"]})
        b.output(y)
        yield Case("CONCATENATION", _name("CONCATENATION", k, p), b.build(),
                   f"{dtype} {p['inputs']} inputs on axis {axis}, quantization {p['quant']}, {p['activation']}")


def svdf_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # LiteRT's forms only (int16 state, float32): LiteRT reads an int8 state as int16 whatever the model
    # declares, so no reference here runs TFLM's int8-state form (tests/e2e/test_stateful_models.py does).
    axes = {"dtype": ["int8", "float32"], "rank": [1, 2, 3], "activation": ["NONE", "RELU", "RELU6", "TANH"],
            "weights_zp": [0, 1], "state_zp": [0, 2], "variable": [True, False]}
    batches, inputs, units, memory = 2, 6, 4, 5
    for k, p in enumerate(_grid(rng, axes, limit)):
        dtype, rank = p["dtype"], p["rank"]
        filters = units * 2  # rank 3 does not divide it: the rule's boundary
        b = ModelBuilder()
        if dtype == "float32":
            x = b.input("x", (batches, inputs), "float32")
            wf = b.const("wf", rng.uniform(-1, 1, (filters, inputs)).astype(np.float32))
            wt = b.const("wt", rng.uniform(-1, 1, (filters, memory)).astype(np.float32))
            bias = b.const("bias", rng.uniform(-1, 1, filters // rank).astype(np.float32))
            state_args = ("float32",)
            y = b.tensor("y", (batches, filters // rank), "float32")
        else:
            x = b.input("x", (batches, inputs), "int8", 0.02, 5)
            wf = b.const("wf", rng.integers(-127, 128, (filters, inputs)), "int8", 0.004, p["weights_zp"])
            wt = b.const("wt", rng.integers(-3000, 3000, (filters, memory)), "int16", 0.0002, 0)
            # TFLM checks bias scale == state scale x time weights scale
            bias = b.const("bias", rng.integers(-3000, 3000, filters // rank), "int32", 0.0005 * 0.0002, 0)
            state_args = ("int16", 0.0005, p["state_zp"])
            y = b.tensor("y", (batches, filters // rank), "int8", 0.05, -3)
        state = (b.tensor("state", (batches, filters * memory), *state_args, variable=True) if p["variable"]
                 else b.input("state", (batches, filters * memory), *state_args))
        b.op("SVDF", [x, wf, wt, bias, state], [y], {"rank": rank, "fused_activation_function": p["activation"]})
        b.output(y)
        yield Case("SVDF", _name("SVDF", k, p), b.build(),
                   f"{dtype} rank {rank} ({filters} filters), {p['activation']}, weights zp {p['weights_zp']}, "
                   f"state zp "
                   f"{p['state_zp']}, state variable {p['variable']}")


def transpose_conv_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"dtype": ["int8", "int16", "float32"], "kernel": [2, 3], "stride": [1, 2], "padding": ["SAME", "VALID"],
            "output_shape": ["equal", "other", "input", "three values"], "activation": ["NONE", "RELU", "TANH"],
            "channels": [(3, 2), (2, 4)]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        dtype, ksz, st = p["dtype"], p["kernel"], p["stride"]
        cin, cout = p["channels"]
        size = 4 * st if p["padding"] == "SAME" else 3 * st + max(ksz - st, 0)
        b = ModelBuilder()
        shape = [1, size, size, cout]
        given = shape if p["output_shape"] != "other" else [1, size + 1, size + 1, cout]
        if p["output_shape"] == "input":
            out_shape = b.input("output_shape", (4,), dtype="int32")
        elif p["output_shape"] == "three values":  # LiteRT's NumElements(output_shape) == 4; TFLM never reads it
            out_shape = b.const("output_shape", np.asarray(given[1:], np.int32))
        else:
            out_shape = b.const("output_shape", np.asarray(given, np.int32))
        xs, xz = _qact(rng, dtype)
        x = b.input("x", (1, 4, 4, cin), dtype=dtype, scale=xs, zero_point=xz)
        if dtype == "float32":
            w = b.const("w", rng.uniform(-1, 1, (cout, ksz, ksz, cin)).astype(np.float32))
            bias = b.const("b", rng.uniform(-0.5, 0.5, cout).astype(np.float32))
            ys, yz = None, None
        else:
            wscales = [float(v) for v in rng.uniform(0.005, 0.02, size=cout)]
            w = b.const("w", rng.integers(-127, 128, (cout, ksz, ksz, cin)), dtype="int8", scale=wscales,
                        zero_point=0, quantized_dimension=0)
            bias = b.const("b", rng.integers(-1000, 1000, cout), dtype="int32" if dtype == "int8" else "int64",
                           scale=[xs * v for v in wscales], zero_point=0)
            ys, yz = _qact(rng, dtype)
            ys *= 4
        y = b.tensor("y", shape, dtype=dtype, scale=ys, zero_point=yz)
        b.op("TRANSPOSE_CONV", [out_shape, w, x, bias], [y],
             {"padding": p["padding"], "stride_h": st, "stride_w": st, "fused_activation_function": p["activation"]})
        b.output(y)
        yield Case("TRANSPOSE_CONV", _name("TRANSPOSE_CONV", k, p), b.build(),
                   f"{dtype} {ksz}x{ksz} stride {st} {p['padding']}, output_shape {p['output_shape']}, channels "
                   f"{p['channels']}, {p['activation']}",
                   fixed={"output_shape": np.asarray(shape, np.int32)} if p["output_shape"] == "input" else {})


def mean_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"dtype": ["int8", "int16", "float32"], "shape": [(6,), (2, 5), (2, 3, 4), (1, 3, 4, 2), (1, 2, 3, 2, 2)],
            "axis": ["last", "first", "two", "out_of_range"], "keep_dims": [False, True], "requant": [False, True]}
    for k, p in enumerate(_grid(rng, axes, limit)):
        dtype, shape = p["dtype"], p["shape"]
        rank = len(shape)
        axis = {"last": [rank - 1], "first": [0], "two": [0, rank - 1] if rank > 1 else [0],
                "out_of_range": [rank]}[p["axis"]]
        reduced = sorted({a % rank for a in axis if a < rank})
        out = tuple(1 if d in reduced else shape[d] for d in range(rank) if p["keep_dims"] or d not in reduced)
        b = ModelBuilder()
        xs, xz = _qact(rng, dtype)
        x = b.input("x", shape, dtype=dtype, scale=xs, zero_point=xz)
        ax = b.const("axis", np.asarray(axis, np.int32))
        ys, yz = (xs, xz) if not p["requant"] or dtype == "float32" else (xs * 0.7, xz // 2 if dtype == "int8" else 0)
        y = b.tensor("y", out or (1,), dtype=dtype, scale=ys, zero_point=yz)
        b.op("MEAN", [x, ax], [y], {"keep_dims": p["keep_dims"]})
        b.output(y)
        yield Case("MEAN", _name("MEAN", k, p), b.build(),
                   f"{dtype} shape {shape} axis {axis} keep_dims {p['keep_dims']}, requantizing {p['requant']}")


def comparison_cases(op: str) -> Callable[[np.random.Generator, int], Iterator[Case]]:
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        axes = {"dtype": ["int8", "int16q", "int16", "float32", "int32"],
                "shapes": [((2, 3, 4), (2, 3, 4)), ((2, 3, 4), (4,)), ((1, 2, 1, 2, 3), (1, 1, 2, 1, 3)),
                           ((2, 1, 2, 1, 2), (2, 1, 2, 1, 2)), PAST_FOUR_GROUPS, ((2, 3), (4, 3))],
                "scale": [0.05, 0.999, 1.5]}
        for k, p in enumerate(_grid(rng, axes, limit)):
            kind = p["dtype"]
            dtype = kind.rstrip("q")
            sa, sb = p["shapes"]
            out = _broadcast(sa, sb) or sa
            b = ModelBuilder()
            if kind in ("int8", "int16q"):
                q1 = dict(scale=p["scale"], zero_point=2 if dtype == "int8" else 0)
                q2 = dict(scale=p["scale"] * 0.8, zero_point=-1 if dtype == "int8" else 0)
            else:
                q1 = q2 = {}
            x1 = b.input("a", sa, dtype=dtype, **q1)
            x2 = b.input("b", sb, dtype=dtype, **q2)
            y = b.tensor("y", out, dtype="bool")
            b.op(op, [x1, x2], [y])
            b.output(y)
            yield Case(op, _name(op, k, p), b.build(), f"{kind} shapes {sa} and {sb}, scale {p['scale']}")
    return cases


def sigmoid_cases(op: str) -> Callable[[np.random.Generator, int], Iterator[Case]]:
    int8_out = (1 / 256, -128) if op == "LOGISTIC" else (1 / 128, 0)
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        axes = {"form": [("int8", int8_out), ("int8", (int8_out[0] * 1.0005, int8_out[1])),
                         ("int8", (int8_out[0], int8_out[1] + 1)), ("int16", (1 / 32768, 0)),
                         ("int16", (1 / 32768 * 1.0005, 0)), ("int16", (1 / 16384, 0)), ("float32", (None, None))],
                "input_scale": [2.0 ** -12, 0.0009, 5.0, 6.0], "shape": [(1, 16), (2, 3, 5)]}
        for k, p in enumerate(_grid(rng, axes, limit)):
            dtype, (ys, yz) = p["form"]
            b = ModelBuilder()
            if dtype == "int8":
                xs, xz = p["input_scale"] * 8 if p["input_scale"] < 1 else 0.1, int(rng.integers(-20, 20))
            elif dtype == "int16":
                xs, xz = p["input_scale"], 0
            else:
                xs = xz = None
            x = b.input("x", p["shape"], dtype=dtype, scale=xs, zero_point=xz)
            y = b.tensor("y", p["shape"], dtype=dtype, scale=ys, zero_point=yz)
            b.op(op, [x], [y])
            b.output(y)
            yield Case(op, _name(op, k, p), b.build(), f"{dtype} input scale {xs}, output {ys} / {yz}, {p['shape']}")
    return cases


GENERATORS: dict[str, Callable[[np.random.Generator, int], Iterator[Case]]] = {
    "CONV_2D": conv_cases,
    "DEPTHWISE_CONV_2D": depthwise_cases,
    "SOFTMAX": softmax_cases,
    "FULLY_CONNECTED": fully_connected_cases,
    "ADD": binary_cases("ADD"),
    "SUB": binary_cases("SUB"),
    "MUL": binary_cases("MUL"),
    "AVERAGE_POOL_2D": pool_cases("AVERAGE_POOL_2D"),
    "MAX_POOL_2D": pool_cases("MAX_POOL_2D"),
    "QUANTIZE": quantize_cases,
    "DEQUANTIZE": dequantize_cases,
    "CONCATENATION": concatenation_cases,
    "SVDF": svdf_cases,
    "MEAN": mean_cases,
    "EQUAL": comparison_cases("EQUAL"),
    "LOGISTIC": sigmoid_cases("LOGISTIC"),
    "TANH": sigmoid_cases("TANH"),
    "GREATER": comparison_cases("GREATER"),
    **{op: comparison_cases(op) for op in ("NOT_EQUAL", "GREATER_EQUAL", "LESS", "LESS_EQUAL")},
    "TRANSPOSE_CONV": transpose_conv_cases,
}


# CI cases per operator where they differ from tests/e2e/test_differential.py's default: the four
# comparisons after EQUAL and GREATER share their walk and their lowering, so a few cases each suffice.
CI_CASES: dict[str, int] = {op: 6 for op in ("NOT_EQUAL", "GREATER_EQUAL", "LESS", "LESS_EQUAL")}
# QUANTIZE's walk reaches each of its fifteen integer and float forms once in CI.
CI_CASES["QUANTIZE"] = 18


def run_operator(op: str, limit: int, session: harness.E2ESession, library: harness.KernelLibrary,
                 seed: int = 30) -> list[Outcome]:
    rng = np.random.default_rng(seed)
    return [evaluate(case, session, library, seed + k) for k, case in enumerate(GENERATORS[op](rng, limit))]


def table(rows: dict[str, Counts]) -> list[str]:
    cells = [HEADER] + [[op, *counts.row()] for op, counts in rows.items()]
    widths = [max(len(r[i]) for r in cells) for i in range(len(HEADER))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in cells]


def write_table(path: pathlib.Path, rows: dict[str, Counts]) -> None:
    path.write_text("\n".join(table(rows)) + "\n")


# The other operator families' generators import this module's helpers, so they join the table last.
from tests.e2e.differential_ops import FAMILIES  # noqa: E402

for _family in FAMILIES:
    GENERATORS.update(_family.GENERATORS)
    CI_CASES.update(_family.CI_CASES)
