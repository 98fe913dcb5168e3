// Tests of the Y-chart loaders (include/ychart/pipeline/load.hpp) and of the
// resource records (include/ychart/pipeline/resources.hpp): kernels from CSV,
// architectures from JSON, every study-001 table in examples/data/shan2021
// with its column map, and malformed input reported as io::parse_error with
// the file, the line and the field. Expected values are copied from the
// data files' rows (and the thesis tables they transcribe), not computed by
// the loader.
#include "support/parse_error_of.hpp"
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#ifndef YCHART_EXAMPLES_DATA_DIR
#error "YCHART_EXAMPLES_DATA_DIR must name examples/data (tests/CMakeLists.txt defines it)"
#endif

namespace {

using namespace ychart;
using namespace ychart::pipeline;

std::filesystem::path data(const std::string& file) {
  return std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "shan2021" / file;
}

/// A file under the system's temporary directory, removed at scope exit.
struct TempFile {
  std::filesystem::path path;
  TempFile(const std::string& name, const std::string& content) {
    path = std::filesystem::temp_directory_path() /
           ("ychart_test_pipeline_load_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            std::to_string(reinterpret_cast<std::uintptr_t>(this)) + "_" + name);
    std::ofstream(path) << content;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};


bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<Task<FpgaResources>> kernels(const std::string& csv, const KernelColumns& c = {}) {
  return parse_kernels<FpgaResources>(io::CsvDocument::parse(csv, "kernels.csv"), c);
}

// ---------------------------------------------------------------------------
// Resource records.

TEST(PipelineResources, CompileTimeAccessByName) {
  FpgaResources r{1, 2, 3, 4, 5};
  static_assert(std::is_same_v<decltype(resource<"dsp">(r)), double&>);
  const FpgaResources& cr = r;
  static_assert(std::is_same_v<decltype(resource<"dsp">(cr)), const double&>);
  static_assert(resource_count<FpgaResources>() == 5);
  static_assert(resource_count<GpuResources>() == 3);
  static_assert(ResourceRecord<CpuResources>);
  static_assert(!ResourceRecord<int>);
  EXPECT_EQ(&resource<"dsp">(r), &r.dsp);
  EXPECT_EQ(&resource<"bw">(r), &r.bw);
  EXPECT_EQ(&resource<"bram">(cr), &r.bram);
  resource<"lut">(r) = 42;
  EXPECT_EQ(r.lut, 42);
  EXPECT_EQ(resource<"ff">(cr), 4);
  GpuResources g{};
  resource<"sm">(g) = 7;
  EXPECT_EQ(g.sm, 7);
}

TEST(PipelineResources, RunTimeAccessByName) {
  EXPECT_EQ(resource_names<FpgaResources>(), (std::vector<std::string>{"bram", "dsp", "lut", "ff", "bw"}));
  EXPECT_EQ(resource_names<CpuResources>(), (std::vector<std::string>{"cores", "memory", "bw"}));
  FpgaResources r{};
  set_resource(r, "dsp", 12.5);
  EXPECT_EQ(r.dsp, 12.5);
  try {
    set_resource(r, "dps", 1.0);
    ADD_FAILURE() << "no error for 'dps'";
  } catch (const model_error& e) {
    EXPECT_TRUE(contains(e.what(), "'dps'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "bram, dsp, lut, ff, bw")) << e.what();
  }
  EXPECT_TRUE(has_resource<FpgaResources>("bw"));
  EXPECT_FALSE(has_resource<FpgaResources>("sm"));
  EXPECT_EQ(resource_values(FpgaResources{1, 2, 3, 4, 5}), (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(resource_at(FpgaResources{1, 2, 3, 4, 5}, 3), 4);
  EXPECT_EQ(resource_values(uniform_resources<GpuResources>(61)), (std::vector<double>{61, 61, 61}));
}

// ---------------------------------------------------------------------------
// Kernels from CSV.

TEST(PipelineLoad, GoodCsv) {
  const auto ks = kernels(
      "# a comment line\n"
      "stage,type,dsp,bram,wcet_ms,di_mb,do_mb,c_mb,delta,gamma,r_ports,w_ports,rw_ports,f1_ghz,power_w,"
      "bw_h2f_pct,br_f2h_pct,tw_ms,tr_ms,bw_exe_pct,br_exe_pct\n"
      "C1,conv,4.5,10,2.5,0.5,1.5,0.25,0.5,0.75,1,2,3,0.25,1.25,50,25,0.2,0.4,1,2\n"
      "C2,conv,4.5,10,2.5,1.5,1,,,,,,,,,,,,,,\n");
  ASSERT_EQ(ks.size(), 2u);
  const auto& a = ks[0];
  EXPECT_EQ(a.name, "C1");
  EXPECT_EQ(a.type, "conv");
  EXPECT_EQ(a.implementation().use.dsp, 4.5);
  EXPECT_EQ(a.implementation().use.bram, 10);
  EXPECT_EQ(a.implementation().use.lut, 0);  // no column: 0
  EXPECT_DOUBLE_EQ(a.implementation().wcet.in(units::ms), 2.5);
  EXPECT_DOUBLE_EQ(a.data_in.value(), 0.5e6);
  EXPECT_DOUBLE_EQ(a.data_out.value(), 1.5e6);
  EXPECT_DOUBLE_EQ(a.constants.value(), 0.25e6);
  EXPECT_EQ(a.input_scaling, 0.5);
  EXPECT_EQ(a.constant_scaling, 0.75);
  EXPECT_EQ(a.implementation().read_ports, 1);
  EXPECT_EQ(a.implementation().write_ports, 2);
  EXPECT_EQ(a.implementation().read_write_ports, 3);
  EXPECT_DOUBLE_EQ(a.implementation().clock.value(), 0.25e9);
  EXPECT_DOUBLE_EQ(a.implementation().power.value(), 1.25);
  EXPECT_DOUBLE_EQ(a.implementation().ddr.host_write, 0.5);
  EXPECT_DOUBLE_EQ(a.implementation().ddr.host_read, 0.25);
  EXPECT_DOUBLE_EQ(a.implementation().ddr.host_write_time.in(units::ms), 0.2);
  EXPECT_DOUBLE_EQ(a.implementation().ddr.host_read_time.in(units::ms), 0.4);
  EXPECT_DOUBLE_EQ(a.implementation().ddr.cu_write, 0.01);
  EXPECT_DOUBLE_EQ(a.implementation().ddr.cu_read, 0.02);
  // Empty optional cells take the defaults: delta = gamma = 1, one read/write port.
  const auto& b = ks[1];
  EXPECT_EQ(b.input_scaling, 1.0);
  EXPECT_EQ(b.constant_scaling, 1.0);
  EXPECT_EQ(b.implementation().read_ports, 0);
  EXPECT_EQ(b.implementation().write_ports, 0);
  EXPECT_EQ(b.implementation().read_write_ports, 1);
  EXPECT_EQ(b.implementation().clock.value(), 0.0);
  EXPECT_EQ(b.implementation().power.value(), 0.0);
  EXPECT_EQ(b.constants.value(), 0.0);
}

TEST(PipelineLoad, OnlyNameAndWcetAreRequired) {
  const auto ks = kernels("stage,wcet_ms\nA,1\nB,2\n");
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_EQ(ks[1].name, "B");
  EXPECT_TRUE(ks[1].type.empty());
  EXPECT_EQ(ks[1].type_name(), "B");
  EXPECT_EQ(ks[1].implementation().use.dsp, 0);
}

TEST(PipelineLoad, RenamedColumns) {
  KernelColumns c;
  c.name = "layer";
  c.wcet = "latency_ms";
  c.type = "";  // not read: a column named "type" is then unknown
  const auto ks = kernels("layer,latency_ms,dsp\nL1,3,7\n", c);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].name, "L1");
  EXPECT_DOUBLE_EQ(ks[0].implementation().wcet.in(units::ms), 3);
  const auto e = parse_error_of([&] { kernels("layer,latency_ms,type\nL1,3,x\n", c); });
  EXPECT_EQ(e.field, "type");
}

TEST(PipelineLoad, LoadPipelineFromAFile) {
  TempFile f("pipeline.csv", "stage,dsp,wcet_ms,di_mb,do_mb\nA,10,2,1,2\nB,20,4,2,3\nC,5,1,3,0.5\n");
  const auto app = load_pipeline<FpgaResources>(f.path, "three");
  EXPECT_EQ(app.name(), "three");
  ASSERT_EQ(app.size(), 3u);
  ASSERT_EQ(app.edges().size(), 2u);
  EXPECT_EQ(app.edges()[1].from, 1u);
  EXPECT_EQ(app.edges()[1].to, 2u);
  EXPECT_DOUBLE_EQ(app.edges()[1].volume.in(units::MB), 3.0);  // C's input
  EXPECT_EQ(app.kernel(1).implementation().use.dsp, 20);
  EXPECT_EQ(load_kernels<FpgaResources>(f.path).size(), 3u);
  // A missing file names itself.
  const auto e = parse_error_of([&] { load_kernels<FpgaResources>(f.path.string() + ".missing"); });
  EXPECT_EQ(e.file, f.path.string() + ".missing");
  EXPECT_TRUE(contains(e.what(), "no such file")) << e.what();
}

// ---------------------------------------------------------------------------
// Every study-001 table, with its column map.

struct Study {
  const char* file;
  const char* wcet;
  std::size_t stages;
};

TEST(PipelineLoad, AllStudy001Tables) {
  const Study studies[] = {
      {"ch3_alex16.csv", "wcet_ms", 8},   {"ch3_alex32.csv", "wcet_ms", 8},    {"ch3_vgg16.csv", "wcet_ms", 17},
      {"ch4_alex32.csv", "tc1_ms", 8},    {"ch4_alex16.csv", "tc1_ms", 8},     {"ch4_yolo32.csv", "tc1_ms", 12},
      {"ch4_vgg16.csv", "tc1_ms", 17},    {"ch4_resnet16.csv", "tc1_ms", 37},  {"ch5_alex16.csv", "twc_ms", 8},
      {"ch5_alex32.csv", "twc_ms", 8},    {"ch5_vgg16.csv", "twc_ms", 17},     {"ch6_transformer16.csv", "twc_ms", 5},
  };
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data("")))
    if (entry.path().extension() == ".csv") ++files;
  EXPECT_EQ(files, std::size(studies)) << "a new table in examples/data/shan2021 needs its row here";
  for (const auto& s : studies) {
    SCOPED_TRACE(s.file);
    KernelColumns c;
    c.wcet = s.wcet;
    const auto app = load_pipeline<FpgaResources>(data(s.file), s.file, c);
    EXPECT_EQ(app.size(), s.stages);
    EXPECT_EQ(app.edges().size(), s.stages - 1);
    for (const auto& k : app.kernels()) EXPECT_GT(k.implementation().wcet.value(), 0.0) << k.name;
  }
}

TEST(PipelineLoad, Study001Values) {
  // ch3_vgg16.csv (Table 3.3): the 2nd stage is CONV2, 67.8 ms; CONV6 is a "CONV6, 7" stage.
  const auto vgg = load_pipeline<FpgaResources>(data("ch3_vgg16.csv"), "VGG");
  EXPECT_EQ(vgg.kernel(1).name, "CONV2");
  EXPECT_DOUBLE_EQ(vgg.kernel(1).implementation().wcet.in(units::ms), 67.8);
  EXPECT_EQ(vgg.kernel(1).implementation().use.dsp, 15.14);
  EXPECT_EQ(vgg.kernel(1).implementation().use.bram, 9.97);
  EXPECT_EQ(vgg.kernel(1).implementation().use.bw, 2.1);
  EXPECT_EQ(vgg.kernel(7).name, "CONV6");
  EXPECT_EQ(vgg.kernel(7).type, "CONV6, 7");
  EXPECT_EQ(vgg.kernel(7).type_name(), vgg.kernel(8).type_name());
  // 13 table rows -> 13 distinct types among the 17 stages.
  const auto types = vgg.type_index();
  EXPECT_EQ(*std::max_element(types.begin(), types.end()), 12u);
  // Sums over the stages (study digest sec. 10.1): DSP 183.67 %, WCET 426.6 ms.
  double dsp = 0, wcet = 0;
  for (const auto& k : vgg.kernels()) dsp += k.implementation().use.dsp, wcet += k.implementation().wcet.in(units::ms);
  EXPECT_NEAR(dsp, 183.67, 1e-9);
  EXPECT_NEAR(wcet, 426.6, 1e-9);

  // ch3_alex32.csv: POOL1 uses no DSP, CONV1 13 ms.
  const auto alex32 = load_kernels<FpgaResources>(data("ch3_alex32.csv"));
  EXPECT_EQ(alex32[1].implementation().use.dsp, 0);
  EXPECT_DOUBLE_EQ(alex32[0].implementation().wcet.in(units::ms), 13);

  // ch4_alex32.csv (Table 4.3), C2: DI 0.27 MB, DO 0.17, C 1.17, delta 0, gamma 1, rw 1, F1 0.22 GHz, TC1 2.99 ms.
  KernelColumns ch4;
  ch4.wcet = "tc1_ms";
  const auto a32 = load_kernels<FpgaResources>(data("ch4_alex32.csv"), ch4);
  const auto& c2 = a32[3];
  EXPECT_EQ(c2.name, "C2");
  EXPECT_DOUBLE_EQ(c2.data_in.in(units::MB), 0.27);
  EXPECT_DOUBLE_EQ(c2.data_out.in(units::MB), 0.17);
  EXPECT_DOUBLE_EQ(c2.constants.in(units::MB), 1.17);
  EXPECT_EQ(c2.input_scaling, 0.0);
  EXPECT_EQ(c2.constant_scaling, 1.0);
  EXPECT_EQ(c2.implementation().read_write_ports, 1);
  EXPECT_EQ(c2.implementation().read_ports, 0);
  EXPECT_DOUBLE_EQ(c2.implementation().clock.in(units::GHz), 0.22);
  EXPECT_EQ(c2.implementation().use.dsp, 37.59);
  EXPECT_DOUBLE_EQ(c2.implementation().wcet.in(units::ms), 2.99);
  // ch4_resnet16.csv: 37 stages, the last the projection C36 (TC1 0.3 ms, DSP 3.79).
  const auto resnet = load_kernels<FpgaResources>(data("ch4_resnet16.csv"), ch4);
  EXPECT_EQ(resnet.back().name, "C36");
  EXPECT_DOUBLE_EQ(resnet.back().implementation().wcet.in(units::ms), 0.3);
  EXPECT_EQ(resnet.back().implementation().use.dsp, 3.79);
  EXPECT_EQ(resnet[2].type, "C2,3,5,7");

  // ch5_vgg16.csv (Table 5.4), Pool2: BRAM 11.6, Twc 13.3 ms, Bw 83.86 %, tw 0.80 ms, bw 1.045 %, br 0.261 %, P 0.825 W.
  KernelColumns ch5;
  ch5.wcet = "twc_ms";
  const auto v5 = load_kernels<FpgaResources>(data("ch5_vgg16.csv"), ch5);
  const auto& pool2 = v5[2];
  EXPECT_EQ(pool2.name, "Pool2");
  EXPECT_EQ(pool2.implementation().use.bram, 11.6);
  EXPECT_DOUBLE_EQ(pool2.implementation().wcet.in(units::ms), 13.3);
  EXPECT_DOUBLE_EQ(pool2.implementation().ddr.host_write, 0.8386);
  EXPECT_DOUBLE_EQ(pool2.implementation().ddr.host_read, 0.2333);
  EXPECT_DOUBLE_EQ(pool2.implementation().ddr.host_write_time.in(units::ms), 0.8);
  EXPECT_DOUBLE_EQ(pool2.implementation().ddr.host_read_time.in(units::ms), 0.72);
  EXPECT_DOUBLE_EQ(pool2.implementation().ddr.cu_write, 0.01045);
  EXPECT_DOUBLE_EQ(pool2.implementation().ddr.cu_read, 0.00261);
  EXPECT_DOUBLE_EQ(pool2.implementation().power.value(), 0.825);
  EXPECT_DOUBLE_EQ(pool2.data_in.in(units::MB), 6.126);
  // ch6_transformer16.csv: no DI/DO columns, so no data; Attention1 31.5 % DSP, 4.12 W.
  const auto tr = load_kernels<FpgaResources>(data("ch6_transformer16.csv"), ch5);
  EXPECT_EQ(tr[0].name, "Attention1");
  EXPECT_EQ(tr[0].implementation().use.dsp, 31.5);
  EXPECT_DOUBLE_EQ(tr[0].implementation().power.value(), 4.12);
  EXPECT_EQ(tr[0].data_in.value(), 0.0);
}

TEST(PipelineLoad, StudyTableWithTheWrongColumnMap) {
  // A chapter-4 table read with the default map (wcet_ms): tc1_ms is unknown.
  const auto path = data("ch4_alex16.csv");
  const auto e = parse_error_of([&] { load_kernels<FpgaResources>(path); });
  EXPECT_EQ(e.file, path.string());
  EXPECT_EQ(e.line, 13);  // 12 comment lines, then the header
  EXPECT_EQ(e.field, "tc1_ms");
  EXPECT_TRUE(contains(e.what(), path.string() + ":13: tc1_ms: unknown column")) << e.what();
}

// ---------------------------------------------------------------------------
// Malformed CSV.

TEST(PipelineLoad, UnknownColumn) {
  const auto e = parse_error_of([] { kernels("# comment\n\nstage,dps,wcet_ms\nA,1,2\n"); });
  EXPECT_EQ(e.file, "kernels.csv");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.field, "dps");
  EXPECT_TRUE(contains(e.reason, "unknown column")) << e.reason;
  EXPECT_TRUE(contains(e.reason, "dsp")) << "the message lists the valid names: " << e.reason;
  EXPECT_TRUE(contains(e.what(), "kernels.csv:3: dps: unknown column")) << e.what();
}

TEST(PipelineLoad, NotANumber) {
  const auto e = parse_error_of([] { kernels("stage,dsp,wcet_ms\nA,1,2\nB,x1,2\n"); });
  EXPECT_EQ(e.file, "kernels.csv");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.column, 3);  // the cell starts at character 3 of line 3
  EXPECT_EQ(e.field, "dsp");
  EXPECT_TRUE(contains(e.what(), "kernels.csv:3:3: dsp: expected a finite number, found \"x1\"")) << e.what();
  // In an attribute column and in the wcet column too; an empty wcet cell.
  EXPECT_EQ(parse_error_of([] { kernels("stage,wcet_ms,di_mb\nA,2,big\n"); }).field, "di_mb");
  const auto w = parse_error_of([] { kernels("stage,wcet_ms\nA,\n"); });
  EXPECT_EQ(w.field, "wcet_ms");
  EXPECT_EQ(w.line, 2);
  EXPECT_TRUE(contains(w.reason, "empty")) << w.reason;
  EXPECT_EQ(parse_error_of([] { kernels("stage,wcet_ms\nA,inf\n"); }).field, "wcet_ms");
}

TEST(PipelineLoad, NegativeOrZeroValues) {
  auto e = parse_error_of([] { kernels("stage,dsp,bram,wcet_ms\nA,1,2,3\nB,1,-2,3\n"); });
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.field, "bram");
  EXPECT_TRUE(contains(e.what(), "kernels.csv:3: bram: resource use must not be negative")) << e.what();
  e = parse_error_of([] { kernels("stage,wcet_ms\nA,0\n"); });
  EXPECT_EQ(e.field, "wcet_ms");
  EXPECT_EQ(e.line, 2);
  e = parse_error_of([] { kernels("stage,wcet_ms,delta\nA,1,1.5\n"); });
  EXPECT_EQ(e.field, "delta");
  e = parse_error_of([] { kernels("stage,wcet_ms,gamma\nA,1,-0.1\n"); });
  EXPECT_EQ(e.field, "gamma");
  // An empty kernel name.
  e = parse_error_of([] { kernels("stage,wcet_ms\n,1\n"); });
  EXPECT_EQ(e.field, "stage");
}

// The header of load.hpp promises that every error names the file, the line
// and the field. A negative data volume, power or port count is not caught
// by parse_kernels(): load_pipeline() then fails in Application::add() with
// a model_error that names the kernel but not the file, line or column.
TEST(PipelineLoad, NegativeDataVolumeNamesFileLineAndColumn) {
  TempFile f("negative.csv", "stage,wcet_ms,di_mb\nA,1,0.5\nB,1,-0.5\n");
  const auto e = parse_error_of([&] { load_pipeline<FpgaResources>(f.path, "neg"); });
  EXPECT_EQ(e.file, f.path.string());
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.field, "di_mb");
}

TEST(PipelineLoad, NegativePortCountNamesFileLineAndColumn) {
  const auto e = parse_error_of([] { kernels("stage,wcet_ms,rw_ports\nA,1,-1\n"); });
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.field, "rw_ports");
}

// Negative DDR shares are caught nowhere: neither parse_kernels() nor
// Application::add() checks Kernel::ddr, so a typo yields negative energy.
TEST(PipelineLoad, NegativeDdrShareNamesFileLineAndColumn) {
  const auto e = parse_error_of([] { kernels("stage,twc_ms,bw_h2f_pct\nA,1,-5\n", [] {
    KernelColumns c;
    c.wcet = "twc_ms";
    return c;
  }()); });
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.field, "bw_h2f_pct");
}

TEST(PipelineLoad, MissingColumns) {
  auto e = parse_error_of([] { kernels("# c\nstage,dsp\nA,1\n"); });
  EXPECT_EQ(e.file, "kernels.csv");
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.field, "wcet_ms");
  EXPECT_TRUE(contains(e.what(), "kernels.csv:2: wcet_ms: required column missing")) << e.what();
  e = parse_error_of([] { kernels("wcet_ms,dsp\n1,1\n"); });
  EXPECT_EQ(e.field, "stage");
  // A header and no rows.
  e = parse_error_of([] { kernels("stage,wcet_ms\n"); });
  EXPECT_TRUE(contains(e.reason, "no kernel rows")) << e.reason;
  // A row with a missing cell (the CSV layer).
  e = parse_error_of([] { kernels("stage,wcet_ms,dsp\nA,1\n"); });
  EXPECT_EQ(e.line, 2);
}

TEST(PipelineLoad, OtherKindsHaveTheirOwnColumns) {
  // GPU kernels: sm and memory are resources, dsp is not.
  const auto g = parse_kernels<GpuResources>(io::CsvDocument::parse("stage,wcet_ms,sm,memory\nA,1,10,20\n", "gpu.csv"));
  EXPECT_EQ(g[0].implementation().use.sm, 10);
  EXPECT_EQ(g[0].implementation().use.memory, 20);
  const auto e = parse_error_of(
      [] { parse_kernels<GpuResources>(io::CsvDocument::parse("stage,wcet_ms,dsp\nA,1,10\n", "gpu.csv")); });
  EXPECT_EQ(e.field, "dsp");
  EXPECT_EQ(e.file, "gpu.csv");
}

// ---------------------------------------------------------------------------
// Architectures from JSON.

const char* const aws_f1_json = R"({
  "name": "AWS F1", "kind": "FPGA", "devices": 8,
  "capacity": { "dsp": 92, "bram": 90 },
  "static_power_w": 4.498,
  "clock": { "nominal_mhz": 250, "degradation_mhz": 40, "utilisation_resource": "dsp",
             "levels": [0.5, 0.75, 1.0] },
  "memory": { "read_gb_per_s": 19.2, "write_gb_per_s": 18, "port_bytes_per_cycle": 64,
              "static_power_w": 0.5, "full_read_power_w": 0.672, "full_write_power_w": 0.4 },
  "host_to_device_gb_per_s": 9.4, "device_to_host_gb_per_s": 8.5
})";

TEST(PipelineLoad, GoodJson) {
  const auto a = parse_architecture<FpgaResources>(io::JsonValue::parse(aws_f1_json, "f1.json"));
  EXPECT_EQ(a.name, "AWS F1");
  EXPECT_EQ(a.kind().name, "FPGA");
  EXPECT_EQ(a.devices(), 8);
  EXPECT_EQ(a.kind().capacity.dsp, 92);
  EXPECT_EQ(a.kind().capacity.bram, 90);
  EXPECT_EQ(a.kind().capacity.lut, 100);  // the default
  EXPECT_DOUBLE_EQ(a.kind().static_power.value(), 4.498);
  EXPECT_DOUBLE_EQ(a.kind().clock.nominal.value(), 250e6);
  EXPECT_DOUBLE_EQ(a.kind().clock.degradation_per_utilisation.value(), 40e6);
  EXPECT_EQ(a.kind().clock.utilisation_resource, "dsp");
  EXPECT_EQ(a.kind().clock.levels_fraction, (std::vector<double>{0.5, 0.75, 1.0}));
  EXPECT_DOUBLE_EQ(a.kind().memory.read_bandwidth.value(), 19.2e9);
  EXPECT_DOUBLE_EQ(a.kind().memory.write_bandwidth.value(), 18e9);
  EXPECT_DOUBLE_EQ(a.kind().memory.port_bytes_per_cycle.value(), 64);
  EXPECT_DOUBLE_EQ(a.kind().memory.static_power.value(), 0.5);
  EXPECT_DOUBLE_EQ(a.kind().memory.full_read_power.value(), 0.672);
  EXPECT_DOUBLE_EQ(a.kind().memory.full_write_power.value(), 0.4);
  EXPECT_DOUBLE_EQ(a.host_to_device.bandwidth.value(), 9.4e9);
  EXPECT_DOUBLE_EQ(a.device_to_host.bandwidth.value(), 8.5e9);
  EXPECT_NO_THROW(a.validate());

  // The same from a file; only "devices" is required.
  TempFile f("arch.json", aws_f1_json);
  EXPECT_EQ(load_architecture<FpgaResources>(f.path).devices(), 8);
  const auto minimal = parse_architecture<FpgaResources>(io::JsonValue::parse(R"({"devices": 2})", "min.json"));
  EXPECT_EQ(minimal.devices(), 2);
  EXPECT_EQ(minimal.kind().capacity.dsp, 100);
  EXPECT_EQ(minimal.kind().clock.nominal.value(), 0);
  EXPECT_EQ(minimal.host_to_device.bandwidth.value(), 0);
}

io::parse_error json_error(const std::string& text) {
  return parse_error_of([&] { parse_architecture<FpgaResources>(io::JsonValue::parse(text, "arch.json")); });
}

TEST(PipelineLoad, JsonUnknownKey) {
  auto e = json_error("{\"devices\": 2,\n \"statc_power_w\": 4}");
  EXPECT_EQ(e.file, "arch.json");
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.field, "statc_power_w");
  EXPECT_TRUE(contains(e.reason, "unknown key")) << e.reason;
  EXPECT_TRUE(contains(e.reason, "static_power_w")) << "lists the known keys: " << e.reason;
  EXPECT_TRUE(contains(e.what(), "arch.json:2:")) << e.what();
  // Inside "clock" and "memory".
  e = json_error("{\"devices\": 2, \"clock\": {\"nominal_ghz\": 1}}");
  EXPECT_EQ(e.field, "clock.nominal_ghz");
  e = json_error("{\"devices\": 2, \"memory\": {\"read_gbps\": 1}}");
  EXPECT_EQ(e.field, "memory.read_gbps");
}

TEST(PipelineLoad, JsonKeysStartingWithAnUnderscoreAreNotes) {
  // The same key rule as the other loaders (io::check_keys): "_comment" and
  // any other key that starts with '_' is ignored, at every level.
  const auto a = parse_architecture<FpgaResources>(io::JsonValue::parse(
      R"({"_comment": "two FPGAs", "devices": 2, "clock": {"_source": "a datasheet", "nominal_mhz": 250}})",
      "notes.json"));
  EXPECT_EQ(a.devices(), 2);
  EXPECT_GT(a.kind().clock.nominal.value(), 0);
  const auto e = json_error("{\"devices\": 2, \"comment\": \"no underscore\"}");
  EXPECT_EQ(e.field, "comment");
  EXPECT_TRUE(contains(e.reason, "unknown key")) << e.reason;
}

TEST(PipelineLoad, JsonCapacityOfAResourceTheKindLacks) {
  auto e = json_error("{\"devices\": 2,\n\n \"capacity\": {\"dsp\": 50, \"sm\": 10}}");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.field, "capacity.sm");
  EXPECT_TRUE(contains(e.reason, "no such resource")) << e.reason;
  EXPECT_TRUE(contains(e.reason, "bram, dsp, lut, ff, bw")) << e.reason;
  // The GPU kind has it.
  EXPECT_EQ(parse_architecture<GpuResources>(io::JsonValue::parse("{\"devices\": 2, \"capacity\": {\"sm\": 10}}", "g"))
                .kind().capacity.sm,
            10);
  // A clock that degrades with a resource the kind lacks.
  e = json_error("{\"devices\": 2, \"clock\": {\"utilisation_resource\": \"dps\"}}");
  EXPECT_EQ(e.field, "clock.utilisation_resource");
  // A capacity that is not positive.
  e = json_error("{\"devices\": 2, \"capacity\": {\"dsp\": 0}}");
  EXPECT_EQ(e.field, "capacity.dsp");
}

TEST(PipelineLoad, JsonDeviceCount) {
  auto e = json_error("{\n\"devices\": 0}");
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.field, "devices");
  EXPECT_TRUE(contains(e.reason, "between 1 and")) << e.reason;
  EXPECT_EQ(json_error("{\"devices\": -3}").field, "devices");
  EXPECT_EQ(json_error("{\"devices\": 2.5}").field, "devices");
  e = json_error("{\"name\": \"x\"}");
  EXPECT_TRUE(contains(e.reason, "missing field \"devices\"")) << e.reason;
}

TEST(PipelineLoad, JsonWrongType) {
  auto e = json_error("{\"devices\": \"8\"}");
  EXPECT_EQ(e.field, "devices");
  EXPECT_EQ(e.line, 1);
  EXPECT_TRUE(contains(e.reason, "expected a number, found the string \"8\"")) << e.reason;
  EXPECT_TRUE(contains(e.what(), "arch.json:1:")) << e.what();
  e = json_error("{\"devices\": 2, \"static_power_w\": \"4.5\"}");
  EXPECT_EQ(e.field, "static_power_w");
  e = json_error("{\"devices\": 2, \"name\": 3}");
  EXPECT_EQ(e.field, "name");
  EXPECT_TRUE(contains(e.reason, "expected a string")) << e.reason;
  e = json_error("{\"devices\": 2, \"capacity\": [50]}");
  EXPECT_EQ(e.field, "capacity");
  e = json_error("{\"devices\": 2, \"clock\": {\"levels\": [0.5, \"1\"]}}");
  EXPECT_EQ(e.field, "clock.levels[1]");
  e = json_error("{\"devices\": 2, \"clock\": {\"levels\": [0.5, 1.5]}}");
  EXPECT_EQ(e.field, "clock.levels[1]");
  e = json_error("{\"devices\": 2, \"memory\": {\"read_gb_per_s\": -1}}");
  EXPECT_EQ(e.field, "memory.read_gb_per_s");
  EXPECT_TRUE(contains(e.reason, "must not be negative")) << e.reason;
}

}  // namespace
