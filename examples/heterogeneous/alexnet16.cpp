// heterogeneous/alexnet16.cpp
// Definitions of alexnet16.hpp, compiled once (the ychart_studies library).
#include "heterogeneous/alexnet16.hpp"

namespace heterogeneous {

double layer_flops(const io::CsvRecord& r) {
  const double out = r.number("out_h") * r.number("out_w") * r.number("out_c");
  const double window = r.number("window");
  const std::string op(r.text("op"));
  if (op == "conv") return 2.0 * out * window * window * r.number("in_c") / r.number("groups");
  if (op == "pool") return out * window * window;
  if (op == "norm") return out * (2.0 * window + 3.0);
  throw model_error("unknown layer op '" + op + "' (conv, pool, norm)");
}

double layer_weight_bytes(const io::CsvRecord& r) {
  if (r.text("op") != "conv") return 0.0;
  const double w = r.number("window");
  return 2.0 * w * w * r.number("in_c") / r.number("groups") * r.number("out_c");
}

Tasks alexnet16(const std::filesystem::path& data, const GpuAssumptions& gpu) {
  KernelColumns columns;
  columns.wcet = "wcet_ms";
  const auto fpga = load_kernels<FpgaResources>(data / "shan2021" / "ch3_alex16.csv", columns);
  const auto layers = io::CsvDocument::read(data / "alexnet" / "alex16_layers.csv");
  if (layers.size() != fpga.size()) throw model_error("alex16_layers.csv and ch3_alex16.csv list different stages");
  // One FPGA CU's dynamic power: study 001 Table 5.3 (same stages, same T_wc, other names).
  const auto powers = io::CsvDocument::read(data / "shan2021" / "ch5_alex16.csv");
  if (powers.size() != fpga.size()) throw model_error("ch5_alex16.csv and ch3_alex16.csv list different stages");
  std::vector<AlexTask> tasks;
  for (std::size_t k = 0; k < fpga.size(); ++k) {
    const auto& row = layers[k];
    if (row.text("stage") != fpga[k].name)
      throw model_error("stage " + std::to_string(k + 1) + " is " + fpga[k].name + " in ch3_alex16.csv but " +
                        std::string(row.text("stage")) + " in alex16_layers.csv");
    Implementation<FpgaResources> on_fpga;
    on_fpga.use = fpga[k].implementation().use;
    on_fpga.wcet = fpga[k].implementation().wcet;
    if (std::abs(powers[k].number("twc_ms") - fpga[k].implementation().wcet.in(units::ms)) > 1e-9)
      throw model_error("stage " + std::to_string(k + 1) + ": T_wc differs between ch5_alex16.csv and ch3_alex16.csv");
    on_fpga.power = powers[k].number("power_w") * units::W;
    Implementation<GpuResources> on_gpu;
    on_gpu.use.sm = 100.0 / gpu.slices;
    on_gpu.use.memory = 100.0 * layer_weight_bytes(row) / (gpu.memory_gb * 1e9);
    const double slice_flops = gpu.tflops * 1e12 * gpu.efficiency / gpu.slices;
    on_gpu.wcet = Constant<dim::time>(layer_flops(row) / slice_flops + gpu.overhead_us * 1e-6);
    on_gpu.power = gpu.cu_watts() * units::W;
    // 16-bit activations; stage k reads what stage k-1 wrote, CONV1 the 227 x 227 x 3 image.
    const double out_bytes = 2.0 * row.number("out_h") * row.number("out_w") * row.number("out_c");
    const Constant<dim::data> in(k == 0 ? 2.0 * 227 * 227 * 3 : tasks.back().data_out.value());
    tasks.push_back(AlexTask{.name = fpga[k].name, .type = fpga[k].type, .data_in = in,
                             .data_out = Constant<dim::data>(out_bytes)}
                        .with(on_fpga)
                        .with(on_gpu));
  }
  return Tasks::pipeline("Alex-16", tasks);
}

Plat platform(int fpgas, int gpus, double pcie_gb_s, const DeviceKind<FpgaResources>& fpga,
              const GpuAssumptions& gpu) {
  Plat p;
  std::get<0>(p.groups).kind.static_power = fpga.static_power;
  std::get<0>(p.groups).kind.memory.static_power = fpga.memory.static_power;
  std::get<1>(p.groups).kind.static_power = gpu.idle_watts * units::W;
  p.host_to_device.bandwidth = pcie_gb_s * units::GB_per_s;
  p.device_to_host.bandwidth = pcie_gb_s * units::GB_per_s;
  p.name = std::to_string(fpgas) + " FPGA + " + std::to_string(gpus) + " GPU";
  std::get<0>(p.groups).kind.name = "xcvu9p";
  std::get<0>(p.groups).devices = fpgas;
  std::get<1>(p.groups).kind.name = "GPU";
  std::get<1>(p.groups).devices = gpus;
  return p;
}

}  // namespace heterogeneous
