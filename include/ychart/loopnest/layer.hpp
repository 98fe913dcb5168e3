// ychart/loopnest/layer.hpp
// A CNN layer as ALOHA's computational tensor (study 002, Listing 1 and
// Table 3): seven nested loops BS, OF, IF, FH, FW, KH, KW around one simple
// operation (a MAC counts 2 operations, a max 1). The loop extents come from
// the layer's input, output and window shapes by the operator's row of
// Table 3; which loops index which data kind (input, output, weights) decides
// the transfer sizes in refine.hpp. A malformed layer throws loopnest_error.
#pragma once

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/dimension.hpp"
#include "../units/operations.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ychart::loopnest {

/// The seven loops of Listing 1, in its order.
enum class Loop : int { BS, OF, IF, FH, FW, KH, KW };
inline constexpr int loop_count = 7;

inline constexpr const char* loop_name(Loop l) {
  constexpr const char* names[] = {"BS", "OF", "IF", "FH", "FW", "KH", "KW"};
  return names[static_cast<int>(l)];
}
inline std::optional<Loop> parse_loop(std::string_view s) {
  for (int k = 0; k < loop_count; ++k)
    if (s == loop_name(Loop(k))) return Loop(k);
  return std::nullopt;
}

/// What a transfer moves.
enum class DataKind : int { input, output, weights };
inline constexpr int data_kind_count = 3;
inline constexpr const char* data_kind_name(DataKind d) {
  constexpr const char* names[] = {"input", "output", "weights"};
  return names[static_cast<int>(d)];
}

/// Table 3's operators (extensible by adding a row to computational_tensor).
enum class Operator { conv, gemm, relu, maxpool };
inline constexpr const char* operator_name(Operator op) {
  constexpr const char* names[] = {"conv", "gemm", "relu", "maxpool"};
  return names[static_cast<int>(op)];
}
inline std::optional<Operator> parse_operator(std::string_view s) {
  for (int k = 0; k < 4; ++k)
    if (s == operator_name(Operator(k))) return Operator(k);
  return std::nullopt;
}

/// A tensor's [C, H, W] (batch is the layer's).
struct Shape {
  long long channels = 1, height = 1, width = 1;
};

struct Layer {
  std::string name;
  Operator op = Operator::conv;
  long long batch = 1;
  Shape input, output;
  long long kernel_height = 1, kernel_width = 1;
  Constant<dim::data> element{2.0};  // bytes per tensor element (16-bit data: 2 B)

  /// A 2-D convolution with same-size output (the Table 6 grid's layers).
  static Layer convolution(std::string name, long long in_channels, long long out_channels, long long size,
                           long long kernel, Constant<dim::data> element = Constant<dim::data>(2.0)) {
    Layer l;
    l.name = std::move(name);
    l.input = {in_channels, size, size};
    l.output = {out_channels, size, size};
    l.kernel_height = l.kernel_width = kernel;
    l.element = element;
    return l;
  }
};

/// Table 3 applied to one layer: the extent of every loop, the operations
/// per innermost iteration, and the loops that index each data kind.
struct ComputationalTensor {
  std::array<long long, loop_count> extent{};
  double ops_per_iteration = 2;  // MAC
  bool has_weights = true;
  /// indexes[d][l]: loop l selects the element of data kind d.
  std::array<std::array<bool, loop_count>, data_kind_count> indexes{};

  long long operator[](Loop l) const { return extent[std::size_t(l)]; }
  /// Eq. 2: the operations the layer needs, without rounding.
  Constant<dim::operations> operations() const {
    double p = ops_per_iteration;
    for (auto e : extent) p *= double(e);
    return Constant<dim::operations>(p);
  }
};

/// Throws loopnest_error naming the layer and the field that is not positive.
inline void validate(const Layer& l) {
  auto positive = [&](long long v, const char* field) {
    if (v < 1 || v > (1LL << 31))
      throw loopnest_error("ychart: layer `" + l.name + "`: " + field + " = " + std::to_string(v) +
                           " must be a positive count below 2^31", l.name);
  };
  positive(l.batch, "batch");
  positive(l.input.channels, "input channels");
  positive(l.input.height, "input height");
  positive(l.input.width, "input width");
  positive(l.output.channels, "output channels");
  positive(l.output.height, "output height");
  positive(l.output.width, "output width");
  positive(l.kernel_height, "kernel height");
  positive(l.kernel_width, "kernel width");
  if (!(l.element.value() > 0) || !std::isfinite(l.element.value()))
    throw loopnest_error("ychart: layer `" + l.name + "`: the element size must be a positive number of bytes", l.name);
}

/// Table 3. Input is indexed by BS, IF, FH, FW (by OF for the channel-wise
/// ReLU and MaxPool, whose IF is 1); output by BS, OF, FH, FW; weights by IF,
/// OF, KH, KW. Like ALOHA, the input's halo (FH + KH - 1 rows) is not counted.
inline ComputationalTensor computational_tensor(const Layer& l) {
  validate(l);
  ComputationalTensor t;
  auto set = [&](long long of, long long in, long long fw, long long fh, long long kh, long long kw) {
    t.extent = {l.batch, of, in, fh, fw, kh, kw};
  };
  const bool channel_wise = l.op == Operator::relu || l.op == Operator::maxpool;
  switch (l.op) {
    case Operator::conv:
      set(l.output.channels, l.input.channels, l.output.width, l.output.height, l.kernel_height, l.kernel_width);
      break;
    case Operator::gemm: set(l.output.channels, l.input.channels, l.input.width, l.input.height, 1, 1); break;
    case Operator::relu: set(l.output.channels, 1, l.output.width, l.output.height, 1, 1); break;
    case Operator::maxpool:
      set(l.output.channels, 1, l.output.width, l.output.height, l.kernel_height, l.kernel_width);
      break;
  }
  t.ops_per_iteration = channel_wise ? 1.0 : 2.0;
  t.has_weights = !channel_wise;
  auto mark = [&](DataKind d, std::initializer_list<Loop> loops) {
    for (auto lp : loops) t.indexes[std::size_t(d)][std::size_t(lp)] = true;
  };
  mark(DataKind::input, {Loop::BS, channel_wise ? Loop::OF : Loop::IF, Loop::FH, Loop::FW});
  mark(DataKind::output, {Loop::BS, Loop::OF, Loop::FH, Loop::FW});
  if (t.has_weights) mark(DataKind::weights, {Loop::IF, Loop::OF, Loop::KH, Loop::KW});
  return t;
}

}  // namespace ychart::loopnest
