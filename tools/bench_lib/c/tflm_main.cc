// SPDX-License-Identifier: Apache-2.0
// The peer firmware of tools/tflm_peer: TensorFlow Lite Micro with its CMSIS-NN kernels runs one model
// the way bench_main.c runs our module: load the inputs (bench_input.c, the benchmark's seeded ones),
// one warm-up Invoke, reload the inputs, then one Invoke timed with the SysTick instruction counter and
// reported through helia_counter_report(); then the arena TFLM used and an FNV-1a checksum of the
// outputs, the same hash as bench_main.c's, so the two runs can be compared byte for byte.
// With TFLM_PEER_PROFILE the timed Invoke also records each operator's ticks through TFLM's profiler
// interface (a separate build: the profiler's calls cost instructions of their own).

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "instruction_counter.h"
#include "tensorflow/lite/micro/micro_interpreter.h"
#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"
#include "tensorflow/lite/micro/micro_profiler_interface.h"
#include "tensorflow/lite/schema/schema_generated.h"

extern "C" {
extern const uint8_t helia_bench_input_bytes[];
extern const int32_t helia_bench_input_offsets[];
extern const unsigned char tflm_peer_model[];  // generated from the .tflite file at build time
}

// Over twice what the MLPerf Tiny int8 models use (vww_96_int8: about 100 KB), and small enough for the
// data memory of every board (the Corstone-300's DTCM holds 512 KiB with the stack and heap).
#ifndef TFLM_PEER_ARENA_BYTES
#define TFLM_PEER_ARENA_BYTES (256 * 1024)
#endif

namespace {

alignas(16) uint8_t arena[TFLM_PEER_ARENA_BYTES];

#ifdef TFLM_PEER_PROFILE
// Ticks of each operator of one Invoke, in execution order (TFLM opens one event per operator).
class OperatorTicks : public tflite::MicroProfilerInterface {
 public:
  static constexpr uint32_t kMaxEvents = 256;
  uint32_t BeginEvent(const char* tag) override {
    if (!recording_ || count_ >= kMaxEvents) return kMaxEvents;
    tags_[count_] = tag;
    begin_[count_] = helia_counter_ticks();
    return count_++;
  }
  void EndEvent(uint32_t handle) override {
    if (handle < kMaxEvents) end_[handle] = helia_counter_ticks();
  }
  void Record(bool on) { recording_ = on; }
  void Print() const {
    for (uint32_t i = 0; i < count_; ++i) {
      printf("tflm: op %lu %s ticks %lu\n", (unsigned long)i, tags_[i], (unsigned long)(end_[i] - begin_[i]));
    }
  }

 private:
  bool recording_ = false;
  uint32_t count_ = 0;
  const char* tags_[kMaxEvents] = {};
  uint64_t begin_[kMaxEvents] = {};
  uint64_t end_[kMaxEvents] = {};
};
OperatorTicks profiler;
tflite::MicroProfilerInterface* const kProfiler = &profiler;
#else
tflite::MicroProfilerInterface* const kProfiler = nullptr;
#endif

// The operators of the MLPerf Tiny int8 models (and their close relatives); with CMSIS_NN defined each
// default registration is TFLM's CMSIS-NN kernel where one exists (kernels/cmsis_nn/*.cc).
using Resolver = tflite::MicroMutableOpResolver<9>;

bool add_operators(Resolver& resolver) {
  return resolver.AddConv2D() == kTfLiteOk && resolver.AddDepthwiseConv2D() == kTfLiteOk &&
         resolver.AddFullyConnected() == kTfLiteOk && resolver.AddAveragePool2D() == kTfLiteOk &&
         resolver.AddMaxPool2D() == kTfLiteOk && resolver.AddSoftmax() == kTfLiteOk &&
         resolver.AddAdd() == kTfLiteOk && resolver.AddMul() == kTfLiteOk && resolver.AddReshape() == kTfLiteOk;
}

bool load_inputs(tflite::MicroInterpreter& interpreter) {
  for (size_t i = 0; i < interpreter.inputs_size(); ++i) {
    TfLiteTensor* input = interpreter.input(i);
    int32_t bytes = helia_bench_input_offsets[i + 1] - helia_bench_input_offsets[i];
    if (input == nullptr || static_cast<size_t>(bytes) != input->bytes) {
      printf("tflm: input %lu: %ld bytes given, the model wants %lu\n", (unsigned long)i, (long)bytes,
             input ? (unsigned long)input->bytes : 0ul);
      return false;
    }
    memcpy(input->data.raw, helia_bench_input_bytes + helia_bench_input_offsets[i], static_cast<size_t>(bytes));
  }
  return true;
}

// FNV-1a over every output in order: bench_main.c's output_checksum().
uint32_t output_checksum(tflite::MicroInterpreter& interpreter) {
  uint32_t hash = 2166136261u;
  for (size_t i = 0; i < interpreter.outputs_size(); ++i) {
    const TfLiteTensor* output = interpreter.output(i);
    const uint8_t* data = reinterpret_cast<const uint8_t*>(output->data.raw);
    for (size_t j = 0; j < output->bytes; ++j) hash = (hash ^ data[j]) * 16777619u;
  }
  return hash;
}

}  // namespace

int main() {
  const tflite::Model* model = tflite::GetModel(tflm_peer_model);
  Resolver resolver;
  if (!add_operators(resolver)) {
    printf("tflm: cannot register the operators\n");
    return 1;
  }
  tflite::MicroInterpreter interpreter(model, resolver, arena, sizeof(arena), nullptr, kProfiler);
  if (interpreter.AllocateTensors() != kTfLiteOk || !load_inputs(interpreter)) {
    printf("tflm: AllocateTensors failed or the inputs do not fit\n");
    return 1;
  }
  if (interpreter.Invoke() != kTfLiteOk || !load_inputs(interpreter)) {  // warm-up
    printf("tflm: warm-up Invoke failed\n");
    return 1;
  }
#ifdef TFLM_PEER_PROFILE
  profiler.Record(true);
#endif
  helia_counter_start();
  TfLiteStatus status = interpreter.Invoke();
  uint64_t ticks = helia_counter_ticks();
  if (status != kTfLiteOk) {
    printf("tflm: Invoke failed\n");
    return 1;
  }
  helia_counter_report("tflm_invoke", "warm", ticks);
  printf("tflm: arena used %lu\n", (unsigned long)interpreter.arena_used_bytes());
  printf("tflm: output checksum %08lx\n", (unsigned long)output_checksum(interpreter));
#ifdef TFLM_PEER_PROFILE
  profiler.Print();
#endif
  return 0;
}
