// One error type that names the element (error.hpp): every problem class's
// malformed data throws a model_error (or a class's own subclass of it)
// whose `element` is the one thing at fault, so a caller can catch
// `model_error` once and point at the kernel, layer, segment or variable.
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace {

using namespace ychart;

/// The model_error `f` throws; fails the test when it throws nothing or another type.
model_error model_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const model_error& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected a model_error, got: " << e.what();
    return model_error("");
  }
  ADD_FAILURE() << "expected a model_error, nothing thrown";
  return model_error("");
}

TEST(ErrorElements, ModelNamesTheVariable) {
  Model m;
  const auto e = model_error_of([&] { (void)m.positive("II", units::ms, 2.0, 1.0); });
  EXPECT_EQ(e.element, "II");
}

TEST(ErrorElements, PipelineNamesTheKernel) {
  using namespace ychart::pipeline;
  Task<FpgaResources> a, b;
  a.name = "conv", b.name = "pool";
  a.implementation().wcet = b.implementation().wcet = 1 * units::ms;
  a.implementation().use = b.implementation().use = {10, 10, 10, 10, 10};
  const auto app = Application<FpgaResources>::pipeline("two", {a, b});
  Platform<FpgaResources> arch;
  arch.name = "two FPGAs";
  arch.kind().name = "FPGA";
  arch.group().devices = 2;
  const auto e = model_error_of([&] { (void)evaluate(app, arch, Mapping{{{1, 0}, {0, 0}}, {}}); });
  EXPECT_EQ(e.element, "pool");  // it has no compute unit
}

TEST(ErrorElements, PartitionNamesTheSegment) {
  using namespace ychart::partition;
  SequentialGraph g;
  g.name = "chain";
  g.input = 100 * units::B;
  for (int i = 0; i < 2; ++i) {
    Segment s;
    s.name = "seg" + std::to_string(i);
    s.first_node = i, s.end_node = i + 1;
    s.cpu_time = 1 * units::ms;
    s.fpga_cycles = s.fpga_max_node_cycles = 100;
    s.output = 10 * units::B;
    g.segments.push_back(s);
  }
  g.segments[1].cpu_time = 0 * units::ms;
  const auto e = model_error_of([&] { g.validate(); });
  EXPECT_EQ(e.element, "seg1");
}

TEST(ErrorElements, LoopnestNamesTheLayer) {
  auto l = loopnest::Layer::convolution("conv3", 64, 64, 28, 3);
  l.kernel_height = 0;
  try {
    loopnest::validate(l);
    FAIL() << "expected loopnest_error";
  } catch (const loopnest_error& e) {
    EXPECT_EQ(e.element, "conv3");
  }
}

TEST(ErrorElements, SynthesisNamesTheTask) {
  synthesis::Specification spec;
  spec.architecture.add_processor("cpu");
  spec.application.add_process("t0");  // no mapping option
  try {
    (void)spec.validate();
    FAIL() << "expected specification_error";
  } catch (const model_error& e) {
    EXPECT_EQ(e.element, "t0");
  }
}

}  // namespace
