// The mapping class's YAML loader: the shipped architectures and networks
// load with the numbers their papers publish, and every malformed input is
// an io::parse_error at the file, line and field at fault.
#include <ychart/mapping/load.hpp>

#include <gtest/gtest.h>

#include <numeric>

using namespace ychart;
using namespace ychart::mapping;

namespace {

const std::string data = std::string(YCHART_EXAMPLES_DATA_DIR) + "/mapping/";

io::parse_error error_of(const std::string& text) {
  try {
    parse_architecture(text, "arch.yaml");
  } catch (const io::parse_error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for\n" << text;
  return io::parse_error("", 0, 0, "", "");
}

const std::string good = R"(name: a
clock_MHz: 200
mac_energy_pJ: 1
levels:
  - name: RF
    capacity_words: {weights: 8, inputs: 4, outputs: 4}
    read_energy_pJ: 1
    write_energy_pJ: 1
  - name: DRAM
    read_energy_pJ: 100
    write_energy_pJ: 100
    fanout: [2, 3]
)";

std::string replaced(std::string text, const std::string& what, const std::string& with) {
  return text.replace(text.find(what), what.size(), with);
}

}  // namespace

TEST(MappingLoad, TheShippedArchitecturesHaveThePublishedNumbers) {
  const auto eyeriss = load_architecture(data + "eyeriss_like.yaml");
  ASSERT_EQ(eyeriss.levels.size(), 3u);
  EXPECT_EQ(eyeriss.macs_available(), 168);  // 12 x 14 PEs
  EXPECT_EQ(eyeriss.levels[0].capacity_of(Tensor::weights), 224);
  EXPECT_EQ(eyeriss.levels[0].capacity_of(Tensor::inputs), 12);
  EXPECT_EQ(eyeriss.levels[0].capacity_of(Tensor::outputs), 24);
  EXPECT_EQ(eyeriss.levels[1].shared_capacity, 108 * 1024 / 2);
  EXPECT_FALSE(eyeriss.levels[1].keeps_tensor(Tensor::weights));
  EXPECT_DOUBLE_EQ(eyeriss.levels[2].read_energy.value() / eyeriss.mac_energy.value(), 200);
  EXPECT_DOUBLE_EQ(eyeriss.clock.value(), 200e6);
  const auto simba = load_architecture(data + "simba_like.yaml");
  EXPECT_EQ(simba.macs_available(), 16 * 64);
  EXPECT_EQ(simba.levels[0].capacity_of(Tensor::weights), 32 * 1024);
  EXPECT_EQ(simba.levels[1].shared_capacity, 64 * 1024);
}

TEST(MappingLoad, TheShippedNetworksHaveTheirLayerCounts) {
  const auto vgg = load_network(data + "vgg16.yaml");
  EXPECT_EQ(std::accumulate(vgg.repeat.begin(), vgg.repeat.end(), std::int64_t{0}), 13);
  EXPECT_EQ(vgg.layers[1][Dim::P], 224);
  const auto resnet = load_network(data + "resnet50.yaml");
  EXPECT_EQ(std::accumulate(resnet.repeat.begin(), resnet.repeat.end(), std::int64_t{0}), 54);  // 53 convolutions, 1 FC
  EXPECT_EQ(resnet.layers[0].stride_h, 2);
  EXPECT_EQ(resnet.layers[0][Dim::R], 7);
  double macs = 0;
  for (std::size_t i = 0; i < resnet.layers.size(); ++i) macs += static_cast<double>(resnet.times(i)) * resnet.layers[i].macs();
  EXPECT_NEAR(macs / 1e9, 4.1, 0.1);  // ResNet-50's well-known 4.1 GMACs
}

TEST(MappingLoad, ErrorsNameTheFileTheLineAndTheField) {
  EXPECT_NO_THROW(parse_architecture(good));
  auto e = error_of(replaced(good, "    fanout: [2, 3]", "    fanout: [2, 3]\n    colour: red"));
  EXPECT_EQ(e.line, 13);
  EXPECT_EQ(e.field, "levels[1].colour");
  e = error_of(replaced(good, "inputs: 4", "inputs: 0"));
  EXPECT_EQ(e.line, 6);
  EXPECT_EQ(e.field, "levels[0].capacity_words.inputs");
  e = error_of(replaced(good, "{weights: 8,", "{psums: 8,"));
  EXPECT_EQ(e.field, "levels[0].capacity_words.psums");
  e = error_of(replaced(good, "    read_energy_pJ: 100\n", ""));
  EXPECT_EQ(e.field, "levels[1].read_energy_pJ");
  e = error_of(replaced(good, "fanout: [2, 3]", "fanout: [2]"));
  EXPECT_EQ(e.field, "levels[1].fanout");
  e = error_of(replaced(good, "clock_MHz: 200", "clock_MHz: fast"));
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.field, "clock_MHz");
  e = error_of(replaced(good, "    fanout: [2, 3]", "    fanout: [2, 3]\n    keeps: [weights]"));  // DRAM must keep all
  EXPECT_EQ(e.field, "levels[1]");
  EXPECT_NE(e.reason.find("must keep every tensor"), std::string::npos);
  e = error_of("name: [unclosed");
  EXPECT_EQ(e.file, "arch.yaml");
  EXPECT_GT(e.line, 0);
  try {
    parse_network("name: n\nlayers:\n  - {name: l, K: 4, C: 4, P: 2}\n", "net.yaml");
    ADD_FAILURE() << "Q is missing";
  } catch (const io::parse_error& x) {
    EXPECT_EQ(x.line, 3);
    EXPECT_EQ(x.field, "layers[0].Q");
  }
  EXPECT_THROW(load_architecture(data + "no_such_file.yaml"), io::parse_error);
  e = error_of("name: " + std::string(200, '[') + std::string(200, ']'));  // yaml-cpp would recurse 200 deep
  EXPECT_NE(e.reason.find("nested"), std::string::npos);
}
