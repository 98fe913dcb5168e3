// study004/mobilenet.cpp
// Definitions of mobilenet.hpp, compiled once (the ychart_studies library).
#include "study004/mobilenet.hpp"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

namespace study004 {

MobileNet load_mobilenet(const std::filesystem::path& file) {
  const auto doc = io::JsonValue::read(file);
  MobileNet m;
  const auto& net = doc.at("mobilenet_v1");
  auto positive = [](const io::JsonValue& v, const char* key) {
    const double x = v.at(key).number();
    if (!(x > 0))
      throw io::parse_error(v.source_name(), v.line(), v.column(), v.path() + "." + key,
                            std::string(key) + " = " + std::to_string(x) + " must be positive");
    return x;
  };
  m.nodes = static_cast<int>(positive(net, "nodes"));
  m.input_bytes = positive(net, "input_bytes");
  m.preprocess_cycles = net.at("preprocess_cycles").number();
  if (!(m.preprocess_cycles >= 0))
    throw io::parse_error(net.source_name(), net.line(), net.column(), net.path() + ".preprocess_cycles",
                          "preprocess_cycles must not be negative");
  m.pool_cycles = positive(net, "pool_cycles");
  m.postprocess_cycles = positive(net, "postprocess_cycles");
  const auto& fc = net.at("fc");
  m.fc_in = positive(fc, "in"), m.fc_out = positive(fc, "out");
  m.fc_weight_bits = static_cast<int>(positive(fc, "weight_bits"));
  m.fc_input_bits = static_cast<int>(positive(fc, "input_bits"));
  for (const auto& c : net.at("cut_points").elements()) m.cut_points.push_back(static_cast<int>(c.integer()));
  for (const auto& v : net.at("layers").elements()) {
    Layer l;
    l.name = v.at("name").string();
    l.kind = v.at("kind").string();
    if (l.kind != "conv" && l.kind != "dw" && l.kind != "pw")
      throw io::parse_error(v.source_name(), v.line(), v.column(), v.path() + ".kind",
                            "kind `" + l.kind + "` (conv, dw or pw)");
    l.in_dim = static_cast<int>(positive(v, "in_dim"));
    l.in_ch = static_cast<int>(positive(v, "in_ch"));
    l.out_dim = static_cast<int>(positive(v, "out_dim"));
    l.out_ch = static_cast<int>(positive(v, "out_ch"));
    l.k = static_cast<int>(positive(v, "k"));
    l.stride = static_cast<int>(positive(v, "stride"));
    l.pad = static_cast<int>(v.at("pad").integer());
    l.macs = positive(v, "macs");
    l.weights = positive(v, "weights");
    l.bram18k_digest = v.at("bram18k_digest").number();
    l.weight_bits = static_cast<int>(positive(v, "weight_bits"));
    l.threshold_node = static_cast<int>(v.at("threshold_node").integer());
    const double expected = double(l.out_dim) * l.out_dim * l.out_ch * (l.kind == "dw" ? 1 : l.in_ch) * l.k * l.k;
    if (expected != l.macs)
      throw io::parse_error(v.source_name(), v.line(), v.column(), v.path() + ".macs",
                            "macs = " + std::to_string(l.macs) + " but the shape gives " + std::to_string(expected));
    m.layers.push_back(l);
  }
  for (std::size_t k = 0; k < m.layers.size(); ++k) m.layers[k].input_bits = k == 0 ? 8 : 4;
  for (const auto& b : net.at("cpu_blocks_ms").elements()) {
    const auto& r = b.at("nodes").elements();
    m.cpu_blocks.push_back({static_cast<int>(r.at(0).integer()), static_cast<int>(r.at(1).integer()), positive(b, "ms"),
                            b.at("from").string()});
  }
  const auto& w = net.at("cpu_share_weights");
  m.ns_per_mac = w.at("ns_per_mac").number();
  m.ns_per_threshold = w.at("ns_per_threshold_element").number();
  m.ms_per_segment = w.at("ms_per_segment").number();

  const auto& kv = doc.at("kv260");
  m.clock_mhz = positive(kv, "clock_mhz");
  const auto& b = kv.at("budget");
  m.budget = {b.at("bram_36k").number(), b.at("lut").number(), b.at("uram").number(), b.at("dsp").number()};
  const auto& tb = kv.at("thesis_budget");
  m.thesis_budget = {tb.at("bram_18k").number(), tb.at("lut").number(), tb.at("uram").number(), tb.at("dsp").number()};
  m.to_ms_per_mb = kv.at("to_fpga").at("ms_per_mb").number(), m.to_ms = kv.at("to_fpga").at("ms").number();
  m.from_ms_per_mb = kv.at("from_fpga").at("ms_per_mb").number(), m.from_ms = kv.at("from_fpga").at("ms").number();

  const auto& th = doc.at("thesis");
  m.cpu_only_ms = positive(th, "cpu_only_ms");
  m.speedup = positive(th, "speedup");
  m.ranges = static_cast<int>(th.at("ranges").integer());
  auto rows = [](const io::JsonValue& list) {
    std::vector<ThesisRow> out;
    for (const auto& r : list.elements()) {
      const auto& f = r.at("fpga").elements();
      out.push_back({{static_cast<int>(f.at(0).integer()), static_cast<int>(f.at(1).integer())},
                     r.at("fpga_ms").number(), r.at("cpu_ms").number(), r.at("total_ms").number()});
    }
    return out;
  };
  m.algorithm1 = rows(th.at("algorithm1_top5"));
  m.algorithm2 = rows(th.at("algorithm2_top5"));
  m.cnv = rows(th.at("cnv_algorithm2_top5"));
  m.cybsec = rows(th.at("cybsec_algorithm2_top5"));
  for (const auto& r : th.at("table_5_4").elements())
    m.table_5_4.push_back({positive(r, "n"), positive(r, "min_ms"), positive(r, "max_ms")});
  const auto& f81 = th.at("fpga_0_81");
  m.thesis_bram_0_81 = f81.at("bram18k").number();
  m.thesis_lut_0_81 = f81.at("lut").number();
  m.thesis_fps_0_81 = f81.at("fps").number();
  if (m.cut_points.size() != m.layers.size() + 2 || m.cut_points.front() != 0 || m.cut_points.back() != m.nodes)
    throw io::parse_error(net.source_name(), net.line(), net.column(), net.path() + ".cut_points",
                          "expected 0, one threshold node per layer, and the node count");
  return m;
}

partition::Platform kv260(const MobileNet& m, bool thesis_budget) {
  partition::Platform p;
  p.fpga.name = thesis_budget ? "KV260 (thesis's budget)" : "KV260";
  p.fpga.clock = m.clock_mhz * units::MHz;
  const auto& b = thesis_budget ? m.thesis_budget : m.budget;
  p.fpga.budget.bram = thesis_budget ? b[0] * units::BRAM_18K : b[0] * units::BRAM_36K;
  p.fpga.budget.lut = b[1] * units::LUT;
  p.fpga.budget.uram = b[2] * units::URAM;
  p.fpga.budget.dsp = b[3] * units::DSP;
  p.to_fpga = {m.to_ms_per_mb * (units::ms / units::MB), m.to_ms * units::ms};
  p.from_fpga = {m.from_ms_per_mb * (units::ms / units::MB), m.from_ms * units::ms};
  return p;
}

namespace {

/// A node whose cost does not fold (pre- and post-processing, pooling).
struct FixedNode {
  double cycles = 0;
};

/// One FINN node of a segment: its name and its cost model.
struct FinnNode {
  std::string name;
  std::variant<FixedNode, finn::Thresholding, finn::Padding, finn::SlidingWindow, finn::Vvau, finn::Mvau> op;
};

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;  // Clang 16 does not deduce aggregate templates yet

/// Segment s's FPGA nodes in dataflow order: the MultiThreshold after layer
/// s - 1, then layer s's padding, sliding window and MVAU or VVAU (or, for
/// the tail, pooling, the fully connected MVAU and the label select). Built
/// here once, for both their costs at one folding (segment_detail) and
/// their folding options (foldable_mobilenet).
std::vector<FinnNode> segment_nodes(const MobileNet& m, std::size_t s) {
  std::vector<FinnNode> nodes;
  const std::size_t n = m.layers.size();
  auto bits_of = [](const Layer& l) { return finn::Bits{l.weight_bits, l.input_bits, 4, false}; };
  if (s > 0) {
    const auto& prev = m.layers[s - 1];
    const double acc = finn::accumulator_bits(
        prev.kind == "dw" ? double(prev.k * prev.k) : double(prev.in_ch * prev.k * prev.k), bits_of(prev));
    nodes.push_back({"Thresholding_" + std::to_string(s - 1),
                     finn::Thresholding{double(prev.out_ch), double(prev.out_dim) * prev.out_dim, acc}});
  }
  if (s == 0 && m.preprocess_cycles > 0) nodes.push_back({"Preprocess", FixedNode{m.preprocess_cycles}});
  if (s == n) {
    nodes.push_back({"GlobalAccPool", FixedNode{m.pool_cycles}});
    nodes.push_back(
        {"MVAU_FC", finn::Mvau{m.fc_out, m.fc_in, 1, finn::Bits{m.fc_weight_bits, m.fc_input_bits, 8, false}}});
    nodes.push_back({"LabelSelect", FixedNode{m.postprocess_cycles}});
    return nodes;
  }
  const auto& l = m.layers[s];
  if (l.k > 1) {
    if (l.pad > 0) nodes.push_back({"FMPadding_" + l.name, finn::Padding{double(l.in_dim + 2 * l.pad), double(l.in_ch)}});
    nodes.push_back({"ConvolutionInputGenerator_" + l.name,
                     finn::SlidingWindow{double(l.in_dim + 2 * l.pad), double(l.in_ch), double(l.k), double(l.out_dim),
                                         double(l.stride), double(l.input_bits)}});
  }
  const double pixels = double(l.out_dim) * l.out_dim;
  if (l.kind == "dw")
    nodes.push_back({"VVAU_" + l.name, finn::Vvau{double(l.out_ch), double(l.k), pixels, bits_of(l)}});
  else
    nodes.push_back({"MVAU_" + l.name, finn::Mvau{double(l.out_ch), double(l.in_ch * l.k * l.k), pixels, bits_of(l)}});
  return nodes;
}

}  // namespace

SegmentDetail segment_detail(const MobileNet& m, std::size_t s, const std::vector<Folding>& fold) {
  SegmentDetail d;
  auto add = [&](const std::string& name, double cycles, double bram, double luts) {
    d.node_cycles.push_back({name, cycles});
    d.cycles += cycles, d.max_cycles = std::max(d.max_cycles, cycles), d.bram += bram, d.luts += luts;
  };
  const auto& f = fold[s];  // layer s's folding (fold[n]: the fully connected layer's)
  for (const auto& node : segment_nodes(m, s)) {
    const auto& name = node.name;
    std::visit(Overloaded{[&](const FixedNode& x) { add(name, x.cycles, 0, 0); },
                          [&](const finn::Thresholding& t) {
                            const double pe = fold[s - 1].pe;  // thresholds fold like the layer that feeds them
                            add(name, t.cycles(pe), 0, t.luts(pe));
                            d.threshold_elements = t.channels * t.pixels;
                          },
                          [&](const finn::Padding& x) { add(name, x.cycles(f.simd), 0, 0); },
                          [&](const finn::SlidingWindow& x) { add(name, x.cycles(f.simd), 0, x.luts(f.simd)); },
                          [&](const auto& unit) {  // MVAU or VVAU
                            add(name, unit.cycles(f.pe, f.simd), unit.bram18(f.pe, f.simd), unit.luts(f.pe, f.simd));
                          }},
               node.op);
  }
  d.macs = s < m.layers.size() ? m.layers[s].macs : m.fc_in * m.fc_out;
  return d;
}

partition::SequentialGraph mobilenet_graph(const MobileNet& m, std::vector<Folding> fold) {
  const std::size_t n = m.layers.size();
  if (fold.empty()) fold.assign(n + 1, Folding{});
  partition::SequentialGraph g;
  g.name = "MobileNetV1-w4a4";
  g.input = m.input_bytes * units::B;
  std::vector<SegmentDetail> details;
  for (std::size_t s = 0; s <= n; ++s) details.push_back(segment_detail(m, s, fold));
  // CPU: each measured block shared among its segments by the fitted weights.
  std::vector<double> cpu_ms(n + 1, 0.0);
  for (const auto& b : m.cpu_blocks) {
    std::vector<std::size_t> inside;
    double total = 0;
    for (std::size_t s = 0; s <= n; ++s)
      if (m.cut_points[s] >= b.begin && m.cut_points[s + 1] <= b.end) {
        inside.push_back(s);
        total += m.ns_per_mac * 1e-6 * details[s].macs + m.ns_per_threshold * 1e-6 * details[s].threshold_elements +
                 m.ms_per_segment;
      }
    for (std::size_t s : inside)
      cpu_ms[s] = b.ms *
                  (m.ns_per_mac * 1e-6 * details[s].macs + m.ns_per_threshold * 1e-6 * details[s].threshold_elements +
                   m.ms_per_segment) /
                  total;
  }
  for (std::size_t s = 0; s <= n; ++s) {
    partition::Segment seg;
    seg.name = s < n ? m.layers[s].name : "tail";
    seg.first_node = m.cut_points[s];
    seg.end_node = m.cut_points[s + 1];
    seg.cpu_time = cpu_ms[s] * units::ms;
    seg.fpga_cycles = details[s].cycles;
    seg.fpga_max_node_cycles = details[s].max_cycles;
    const double out_elements = s < n ? double(m.layers[s].out_dim) * m.layers[s].out_dim * m.layers[s].out_ch : m.fc_out;
    seg.output = out_elements * units::B;  // one byte per element, as the thesis's transfers
    seg.fpga.bram = details[s].bram * units::BRAM_18K;
    seg.fpga.lut = details[s].luts * units::LUT;
    seg.has_threshold = s > 0;
    g.segments.push_back(seg);
  }
  g.validate();
  return g;
}

partition::PartitionOptions pipelined_options() {
  partition::PartitionOptions o;
  o.schedule = partition::Schedule::pipelined;
  return o;
}

std::vector<double> divisors(int n) {
  std::vector<double> d;
  for (int i = 1; i <= n; ++i)
    if (n % i == 0) d.push_back(i);
  return d;
}

partition::FoldableGraph foldable_mobilenet(const MobileNet& m) {
  using partition::FoldableNode;
  using partition::NodeOption;
  auto label = [](double pe, double simd, const char* style) {
    return " PE=" + std::to_string(int(pe)) + " SIMD=" + std::to_string(int(simd)) + style;
  };
  using partition::FinnAttributes;
  auto options_of = [&](const FinnNode& node) {
    FoldableNode f{node.name, {}, {}};
    std::visit(Overloaded{[&](const FixedNode& x) { f.options.push_back(NodeOption{"fixed", 1, 1, x.cycles, {}, ""}); },
                          [&](const finn::Thresholding& t) {
                            f.finn = FinnAttributes{true, false, false};
                            for (double pe : divisors(int(t.channels))) {
                              NodeOption o{label(pe, 1, ""), pe, 1, t.cycles(pe), {}, ""};
                              o.fpga.lut = t.luts(pe) * units::LUT;
                              f.options.push_back(o);
                            }
                          },
                          [&](const finn::Padding& x) {
                            f.finn = FinnAttributes{false, true, false};
                            for (double simd : divisors(int(x.channels)))
                              f.options.push_back(NodeOption{label(1, simd, ""), 1, simd, x.cycles(simd), {}, ""});
                          },
                          [&](const finn::SlidingWindow& x) {
                            f.finn = FinnAttributes{false, true, false};
                            for (double simd : divisors(int(x.channels))) {
                              NodeOption o{label(1, simd, ""), 1, simd, x.cycles(simd), {}, ""};
                              o.fpga.lut = x.luts(simd) * units::LUT;
                              f.options.push_back(o);
                            }
                          },
                          [&](const finn::Vvau& v) {
                            f.finn = FinnAttributes{true, true, false};
                            for (double pe : divisors(int(v.channels)))
                              for (double simd : divisors(int(v.k * v.k))) {
                                NodeOption o{label(pe, simd, ""), pe, simd, v.cycles(pe, simd), {}, ""};
                                o.fpga.bram = v.bram18(pe, simd) * units::BRAM_18K;
                                o.fpga.lut = v.luts(pe, simd) * units::LUT;
                                f.options.push_back(o);
                              }
                          },
                          [&](const finn::Mvau& u) {  // weights in block RAM or in UltraRAM
                            f.finn = FinnAttributes{true, true, true};
                            for (double pe : divisors(int(u.mh)))
                              for (double simd : divisors(int(u.mw))) {
                                NodeOption block{label(pe, simd, " block"), pe, simd, u.cycles(pe, simd), {}, "block"};
                                block.fpga.bram = u.bram18(pe, simd) * units::BRAM_18K;
                                block.fpga.lut = u.luts(pe, simd) * units::LUT;
                                NodeOption ultra{label(pe, simd, " ultra"), pe, simd, u.cycles(pe, simd), {}, "ultra"};
                                ultra.fpga.uram = u.uram(pe, simd) * units::URAM;
                                ultra.fpga.lut = u.luts(pe, simd) * units::LUT;
                                f.options.push_back(block);
                                f.options.push_back(ultra);
                              }
                          }},
               node.op);
    return f;
  };
  partition::FoldableGraph out(m.layers.size() + 1);
  for (std::size_t s = 0; s < out.size(); ++s)
    for (const auto& node : segment_nodes(m, s)) out[s].push_back(options_of(node));
  return out;
}

}  // namespace study004
