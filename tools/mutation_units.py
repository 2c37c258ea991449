# SPDX-License-Identifier: Apache-2.0
"""The units tools/mutate_python.py samples: a module (or a group of files sampled as one), and the tests
that judge its mutants. A unit's tests are the unit test files that exercise it (chosen by hand: those
that import it, plus the conversion tests that reach it through the pipeline), kept small enough that a
surviving mutant costs well under a minute. A mutant these tests miss may still be killed by another
test of the suite; the score is then a lower bound."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    name: str
    files: tuple[str, ...]
    tests: tuple[str, ...]
    functions: tuple[str, ...] = ()  # only these functions' mutants (empty: all)


def _u(name: str, files: str, tests: str, functions: str = "") -> Unit:
    return Unit(name, tuple(files.split()), tuple(f"tests/{t}" for t in tests.split()), tuple(functions.split()))


# Conversions of small models through the whole pipeline, with their errors: the tests that reach
# the modules no unit test imports.
_PIPELINE = "unit/test_pipeline.py unit/test_errors.py"

UNITS: tuple[Unit, ...] = (
    _u("cli.py", "helia_aot/cli.py", "unit/test_cli.py unit/test_cli_flags.py unit/test_help.py unit/test_mutation_kills_fifth.py"),
    _u("__main__.py + version.py", "helia_aot/__main__.py helia_aot/version.py",
       "unit/test_cli.py unit/test_help.py unit/test_errors.py"),
    _u("errors.py", "helia_aot/errors.py", "unit/test_mutation_kills_errors.py unit/test_errors.py unit/test_input_errors.py unit/test_hostile_config.py"),
    _u("user_files.py", "helia_aot/user_files.py", "unit/test_mutation_kills_user_files.py unit/test_hostile_inputs.py unit/test_input_errors.py"),
    _u("config/file.py", "helia_aot/config/file.py", "unit/test_hostile_config.py unit/test_mutation_kills_config.py unit/test_mutation_kills_fifth.py"),
    _u("config/memory_rules.py", "helia_aot/config/memory_rules.py",
       "unit/test_placement.py unit/test_hostile_config.py unit/test_rule_provenance.py"),
    _u("config/operator_rules.py", "helia_aot/config/operator_rules.py",
       "unit/test_operator_overrides.py unit/test_rule_provenance.py unit/test_hostile_config.py"),
    _u("config/options.py", "helia_aot/config/options.py",
       "unit/test_hostile_config.py unit/test_cli_flags.py unit/test_operator_overrides.py "
       "unit/test_mutation_kills_fifth.py"),
    _u("config/spec.py", "helia_aot/config/spec.py", "unit/test_hostile_config.py unit/test_help.py "
       "unit/test_mutation_kills_config.py unit/test_mutation_kills_fifth.py"),
    _u("config/targets.py", "helia_aot/config/targets.py",
       "unit/test_targets.py unit/test_hostile_config.py unit/test_mutation_kills_config.py "
       "unit/test_mutation_kills_fifth.py"),
    _u("config/yaml_file.py", "helia_aot/config/yaml_file.py", "unit/test_hostile_config.py unit/test_operator_overrides.py "
       "unit/test_mutation_kills_config.py unit/test_mutation_kills_fifth.py"),
    _u("emit/c_syntax.py", "helia_aot/emit/c_syntax.py", "unit/test_c_literals.py unit/test_symbols.py "
       "unit/test_hostile_names.py " + _PIPELINE),
    _u("emit/cmake.py", "helia_aot/emit/cmake.py", "unit/test_cmake_export.py unit/test_readme_cmake.py unit/test_module_docs.py"),
    _u("emit/interface.py", "helia_aot/emit/interface.py", "unit/test_module_interface.py unit/test_report_html.py"),
    _u("emit/module.py", "helia_aot/emit/module.py", "unit/test_module_api.py unit/test_module_interface.py unit/test_placement.py " + _PIPELINE),
    _u("emit/output_dir.py", "helia_aot/emit/output_dir.py", "unit/test_mutation_kills_output_dir.py unit/test_output_dir.py unit/test_input_errors.py"),
    _u("emit/readme.py", "helia_aot/emit/readme.py", "unit/test_readme_cmake.py unit/test_module_interface.py unit/test_module_docs.py"),
    _u("emit/symbols.py", "helia_aot/emit/symbols.py", "unit/test_symbols.py unit/test_hostile_names.py"),
    _u("frontend/litert.py", "helia_aot/frontend/litert.py",
       "unit/test_hostile_frontend.py unit/test_malformed_models.py unit/test_mutation_kills_library_frontend.py "
       "unit/test_mutation_kills_frontend.py"),
    _u("frontend/resources.py", "helia_aot/frontend/resources.py", "unit/test_mutation_kills_frontend.py unit/test_resource_variables.py unit/test_persistent.py unit/test_mutation_kills_fifth.py"),
    _u("golden/references.py", "helia_aot/golden/references.py",
       "unit/test_mutation_kills_golden.py unit/test_golden_reference.py unit/test_golden_sequences.py"),
    _u("golden/test_data.py", "helia_aot/golden/test_data.py", "unit/test_mutation_kills_golden.py unit/test_golden_reference.py unit/test_golden_sequences.py"),
    _u("ir/dtypes.py", "helia_aot/ir/dtypes.py", "unit/test_custom_operators.py unit/test_hostile_frontend.py " + _PIPELINE),
    _u("ir/graph.py", "helia_aot/ir/graph.py",
       "unit/test_verifier.py unit/test_rewrites.py unit/test_custom_operators.py " + _PIPELINE),
    _u("library/cost_kinds.py + helium_costs.py", "helia_aot/library/cost_kinds.py helia_aot/library/helium_costs.py",
       "unit/test_cost_model.py unit/test_kernel_choice.py unit/test_mutation_kills_cost_model.py"),
    _u("library/kernel_library.py", "helia_aot/library/kernel_library.py",
       "unit/test_library_entries.py unit/test_mutation_kills_library_frontend.py unit/test_ops_float32.py "
       "unit/test_kernel_choice.py unit/test_mutation_kills_survivors.py unit/test_mutation_kills_fifth.py"),
    _u("library/ns_cmsis_nn_scratch.py", "helia_aot/library/ns_cmsis_nn_scratch.py",
       "unit/test_scratch_sizes.py unit/test_mutation_kills_library_frontend.py unit/test_mutation_kills_survivors.py "
       "unit/test_mutation_kills_fifth.py"),
    _u("lowering/lower.py", "helia_aot/lowering/lower.py",
       "unit/test_mutation_kills_lowering.py unit/test_ops_behaviour_gaps.py unit/test_operator_overrides.py "
       + _PIPELINE),
    _u("lowering/operator_ids.py", "helia_aot/lowering/operator_ids.py", "unit/test_mutation_kills_lowering.py " + _PIPELINE),
    _u("pipeline.py", "helia_aot/pipeline.py",
       _PIPELINE + " unit/test_module_interface.py unit/test_input_errors.py unit/test_output_dir.py"),
    _u("record/plan_model.py", "helia_aot/record/plan_model.py",
       "unit/test_plan_roundtrip.py unit/test_plan_writer_fields.py unit/test_plan_fixed_vocabulary.py "
       "unit/test_mutation_kills_record.py"),
    _u("record/plan_writer.py", "helia_aot/record/plan_writer.py", "unit/test_plan_writer_fields.py unit/test_plan_roundtrip.py unit/test_placement.py unit/test_patch_schedule.py unit/test_mutation_kills_fifth.py"),
    _u("record/report_html.py", "helia_aot/record/report_html.py",
       "unit/test_report_html.py unit/test_mutation_kills_record.py unit/test_plan_report.py "
       "unit/test_mutation_kills_fifth.py"),
    _u("record/schema.py", "helia_aot/record/schema.py", "unit/test_plan_input.py unit/test_plan_roundtrip.py unit/test_report_html.py unit/test_mutation_kills_record.py unit/test_mutation_kills_fifth.py"),
    # The e2e harness: its comparison and tolerance logic only (building and running C is the selfcheck's).
    _u("tests/e2e/harness.py (comparison)", "tests/e2e/harness.py",
       "unit/test_mutation_kills_e2e_harness.py e2e/test_harness_selfcheck.py",
       "max_abs_diff output_ranges per_output_max_diff argmax_agreement bit_differences check_reset_repeats "
       "_check_header _split_outputs first_divergence"),
)

# helia_aot/ops/, one unit per operator family (the family's operator modules and the shared helpers
# only it uses), judged by the family's unit tests; the single-operator e2e cases (C compiled and run
# against LiteRT) are left out to keep a mutant cheap, so these scores are lower bounds.
_OPS_FAMILIES = {
    "convolution and matmul": ("conv_2d depthwise_conv_2d transpose_conv fully_connected batch_matmul svdf "
                               "shared/accumulator",
                               "test_ops_convolution_paths test_ops_transpose_conv test_ops_svdf test_hybrid "
                               "test_ops_behaviour_gaps test_ops_shared_helpers test_mutation_kills_fifth"),
    "elementwise arithmetic": ("add sub mul div squared_difference maximum minimum prelu shared/add_sub "
                               "shared/binary_arith shared/broadcast shared/minmax shared/int16_arithmetic "
                               "shared/fixed_point",
                               "test_ops_arithmetic test_broadcast_dims test_int16_requant_limit "
                               "test_ops_behaviour_gaps test_ops_shared_helpers test_constant_folds "
                               "test_mutation_kills_fifth"),
    "unary and activations": ("abs exp log neg rsqrt sqrt square gelu hard_swish leaky_relu logistic tanh relu "
                              "relu6 relu_0_to_1 relu_n1_to_1 softmax cast quantize dequantize shared/lookup_tables "
                              "shared/unary_math shared/clamp shared/fused_activation shared/float_variants",
                              "test_ops_unary_math test_ops_float32 test_float16 test_ops_behaviour_gaps "
                              "test_ops_shared_helpers test_mutation_kills_survivors test_mutation_kills_fifth"),
    "pooling and reductions": ("average_pool_2d max_pool_2d mean sum reduce_any reduce_max reduce_min reduce_prod "
                               "arg_max arg_min shared/pooling shared/reduce shared/reduce_extreme "
                               "shared/arg_max_min shared/window",
                               "test_ops_pooling test_ops_reduce_compare test_ops_shared_helpers "
                               "test_refusals_name_tensors test_constant_folds test_rules_other "
                               "test_mutation_kills_fifth"),
    "comparison, logical, select": ("equal not_equal greater greater_equal less less_equal logical_and logical_or "
                                    "logical_not select_v2 where shared/comparison shared/logical",
                                    "test_ops_reduce_compare test_refusals_name_tensors test_ops_behaviour_gaps "
                                    "test_mutation_kills_fifth"),
    "shaping, indexing, spatial": ("reshape squeeze expand_dims transpose concatenation pack unpack split split_v "
                                   "slice strided_slice gather gather_nd scatter_nd tile broadcast_to fill "
                                   "zeros_like shape reverse_v2 reverse_sequence pad mirror_pad dilate "
                                   "dynamic_update_slice depth_to_space space_to_depth batch_to_space_nd "
                                   "space_to_batch_nd resize_bilinear resize_nearest_neighbor shared/alias "
                                   "shared/shaping shared/indexing shared/shapes shared/spatial",
                                   "test_ops_shaping test_ops_indexing test_ops_spatial test_ops_pad "
                                   "test_refusals_name_tensors test_constant_folds test_mutation_kills_fifth"),
    "recurrent and state": ("unidirectional_sequence_lstm var_handle read_variable assign_variable call_once",
                            "test_ops_lstm test_resource_variables test_persistent test_internal_state "
                            "test_mutation_kills_fifth"),
    "signal": ("signal_energy signal_fft_auto_scale signal_filter_bank signal_filter_bank_log "
               "signal_filter_bank_spectral_subtraction signal_filter_bank_square_root signal_pcan signal_rfft "
               "signal_window shared/signal shared/signal_fft",
               "test_ops_signal_rfft_noise_pcan_log test_ops_signal_window_energy_filter_bank "
               "test_mutation_kills_fifth"),
    "operator framework": ("__init__ base shared/__init__ shared/checks shared/operands",
                           "test_ops test_plan_fixed_vocabulary test_refusals_name_tensors test_custom_operators "
                           "test_mutation_kills_fifth"),
}
UNITS += tuple(
    _u(f"ops: {family}", " ".join(f"helia_aot/ops/{m}.py" for m in modules.split()),
       " ".join(f"unit/{t}.py" for t in tests.split()))
    for family, (modules, tests) in _OPS_FAMILIES.items())

# Sampled mutants that no test can kill because no behaviour differs: name -> why (tests/MUTATION.md).
EQUIVALENT: dict[str, str] = {
    "helia_aot.user_files.x_read_bytes__mutmut_10":
        "getattr(os, 'O_CLOEXEC', None): the default is used only where os has no O_CLOEXEC (Windows); "
        "Linux and macOS, where the compiler runs, have it",
    "helia_aot.golden.test_data.x__float_step__mutmut_14":
        "values.astype(None) is values.astype(float64): NumPy's default dtype is float64",
    "helia_aot.ir.graph.xǁLazyOptionsǁ__init____mutmut_2":
        "the first _value ({} -> None) is never read: LazyOptions is always made with a decode function, and "
        "_value is read only after _load replaced it",
    "helia_aot.pipeline.x_module_files__mutmut_22":
        "module_files without the plan's interface derives it with model_interface(graph), the same pure function "
        "of the same graph that made the plan's",
    "helia_aot.lowering.lower.x_prepare__mutmut_65":
        "the hint of prepare's input/output dtype refusal: every dtype the verifier lets through (DTYPE_BYTES) is "
        "in _IO_DTYPES, so no conversion reaches it",
    "helia_aot.ops.shared.checks.x_constant_ints__mutmut_13":
        "the hint of constant_ints' own refusal, which no model reaches: every operand its 20 callers read is "
        "declared constant=True, so check_operands refuses a run-time one first (TRANSPOSE_CONV reads "
        "output_shape only when it is constant); checked by a registry walk on 2026-12-03",
    "helia_aot.ops.average_pool_2d.xǁAveragePool2Dǁlower__mutmut_17":
        "the output width handed to the pooling sizer (None for out[2]): KernelLibrary.scratch passes it only to "
        "the sizer, and none of AveragePool2D._sizer's four reads it (avgpool_s8 / avgpool_s16 size ch_src int32s "
        "on DSP, else 0; the float pools 0), as ns-cmsis-nn 7.29.2's arm_avgpool_s8/s16_get_buffer_size{,_dsp,_mve} "
        "discard output_x ((void)output_x)",
    "helia_aot.ops.signal_energy.xǁSignalEnergyǁfold__mutmut_39":
        "start < end -> start <= end: with start == end both slices (out[start:end], pairs[start:end]) are empty, so "
        "the assignment writes nothing and the output stays all zeros either way",
    "helia_aot.ops.shared.arg_max_min.x__axis__mutmut_33":
        "the rule of _axis's own out-of-range refusal, which no model reaches: ArgLowering declares "
        "axes = (Axis('input 1'),), so OpLowering.check_axes, which lowering.lower runs before validate, lower and "
        "fold, refuses an axis outside [-rank, rank) of input 0 first (the same range); the axis operand is "
        "required and constant in every ARG_MAX / ARG_MIN variant (checked by a registry walk on 2026-12-03)",
}
