// ychart/pipeline/load.hpp
// Applications and architectures from data files: kernels from CSV (one row
// per kernel in pipeline order, a column per attribute or resource), the
// architecture from JSON. Every column and key must be one ychart knows --
// a misspelt resource column is an error, not a silently ignored one -- and
// every error names the file, the line and the field (io::parse_error).
#pragma once

#include "../config.hpp"
#include "application.hpp"
#include "architecture.hpp"
#include "resources.hpp"

#include "../expr/operators.hpp"  // number * unit
#include "../io/csv.hpp"
#include "../io/json.hpp"
#include "../io/json_fields.hpp"
#include "../io/parse_error.hpp"
#include "../units/unit.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ychart::pipeline {

/// Names of the attribute columns (their units are in the names); columns
/// named after a resource of the kind fill Kernel::use. Empty name: the
/// attribute is not read. Only `name` and `wcet` are required.
struct KernelColumns {
  std::string name = "stage";
  std::string type = "type";
  std::string wcet = "wcet_ms";  // ch. 4 tables call it tc1_ms, ch. 5 twc_ms
  std::string data_in = "di_mb", data_out = "do_mb", constants = "c_mb";
  std::string input_scaling = "delta", constant_scaling = "gamma";
  std::string read_ports = "r_ports", write_ports = "w_ports", read_write_ports = "rw_ports";
  std::string clock = "f1_ghz";
  std::string power = "power_w";
  std::string host_write = "bw_h2f_pct", host_read = "br_f2h_pct";  // % of DDR bandwidth
  std::string host_write_time = "tw_ms", host_read_time = "tr_ms";
  std::string cu_write = "bw_exe_pct", cu_read = "br_exe_pct";  // % of DDR bandwidth
};

/// Reads kernels from CSV text (`source` names it in errors).
template <ResourceRecord R>
std::vector<Task<R>> parse_kernels(const io::CsvDocument& doc, const KernelColumns& c = {}) {
  const std::string* attributes[] = {&c.name,          &c.type,           &c.wcet,        &c.data_in,
                                     &c.data_out,      &c.constants,      &c.input_scaling, &c.constant_scaling,
                                     &c.read_ports,    &c.write_ports,    &c.read_write_ports, &c.clock,
                                     &c.power,         &c.host_write,     &c.host_read,   &c.host_write_time,
                                     &c.host_read_time, &c.cu_write,      &c.cu_read};
  for (const auto& column : doc.header()) {
    bool known = has_resource<R>(column);
    for (const auto* a : attributes) known = known || (!a->empty() && *a == column);
    if (!known) {
      std::string valid;
      for (const auto& r : resource_names<R>()) valid += (valid.empty() ? "" : ", ") + r;
      for (const auto* a : attributes)
        if (!a->empty()) valid += ", " + *a;
      throw io::parse_error(doc.source_name(), doc.header_line(), 0, column,
                            "unknown column (neither a resource of this device kind nor an attribute; known: " +
                                valid + ")");
    }
  }
  if (!doc.has_column(c.name) || !doc.has_column(c.wcet))
    throw io::parse_error(doc.source_name(), doc.header_line(), 0, doc.has_column(c.name) ? c.wcet : c.name,
                          "required column missing");
  // Every attribute is a count, a volume, a time, a clock, a power or a
  // share: none may be negative, and the error names the cell.
  auto number = [&](const io::CsvRecord& r, const std::string& column, double fallback) {
    const double v = column.empty() ? fallback : r.number_or(column, fallback);
    if (v < 0) throw io::parse_error(doc.source_name(), r.line(), 0, column, "must not be negative");
    return v;
  };
  auto count = [&](const io::CsvRecord& r, const std::string& column, int fallback) {
    if (column.empty() || !doc.has_column(column) || r.empty(column)) return fallback;
    const long v = r.integer(column);
    if (v < 0 || v > 1'000'000)
      throw io::parse_error(doc.source_name(), r.line(), 0, column, "must be a count between 0 and 10^6");
    return static_cast<int>(v);
  };
  auto share = [&](const io::CsvRecord& r, const std::string& column) {
    const double v = number(r, column, 0);
    if (v > 100) throw io::parse_error(doc.source_name(), r.line(), 0, column, "a share of bandwidth is at most 100 %");
    return v / 100;
  };
  std::vector<Task<R>> out;
  for (const auto& r : doc) {
    Task<R> k;
    auto& impl = k.implementation();
    k.name = std::string(r.text(c.name));
    if (k.name.empty()) throw io::parse_error(doc.source_name(), r.line(), 0, c.name, "empty kernel name");
    if (!c.type.empty() && doc.has_column(c.type)) k.type = std::string(r.text(c.type));
    for (const auto& column : doc.header())
      if (has_resource<R>(column)) {
        const double v = r.number(column);
        if (v < 0) throw io::parse_error(doc.source_name(), r.line(), 0, column, "resource use must not be negative");
        set_resource(impl.use, column, v);
      }
    const double wcet = r.number(c.wcet);
    if (!(wcet > 0)) throw io::parse_error(doc.source_name(), r.line(), 0, c.wcet, "must be positive");
    impl.wcet = wcet * units::ms;
    k.data_in = number(r, c.data_in, 0) * units::MB;
    k.data_out = number(r, c.data_out, 0) * units::MB;
    k.constants = number(r, c.constants, 0) * units::MB;
    k.input_scaling = number(r, c.input_scaling, 1);
    k.constant_scaling = number(r, c.constant_scaling, 1);
    impl.read_ports = count(r, c.read_ports, 0);
    impl.write_ports = count(r, c.write_ports, 0);
    impl.read_write_ports = count(r, c.read_write_ports, 1);
    impl.clock = number(r, c.clock, 0) * units::GHz;
    impl.power = number(r, c.power, 0) * units::W;
    impl.ddr.host_write = share(r, c.host_write);
    impl.ddr.host_read = share(r, c.host_read);
    impl.ddr.host_write_time = number(r, c.host_write_time, 0) * units::ms;
    impl.ddr.host_read_time = number(r, c.host_read_time, 0) * units::ms;
    impl.ddr.cu_write = share(r, c.cu_write);
    impl.ddr.cu_read = share(r, c.cu_read);
    if (k.input_scaling < 0 || k.input_scaling > 1)
      throw io::parse_error(doc.source_name(), r.line(), 0, c.input_scaling, "must lie in [0, 1]");
    if (k.constant_scaling < 0 || k.constant_scaling > 1)
      throw io::parse_error(doc.source_name(), r.line(), 0, c.constant_scaling, "must lie in [0, 1]");
    out.push_back(std::move(k));
  }
  if (out.empty()) throw io::parse_error(doc.source_name(), doc.header_line(), 0, "", "no kernel rows");
  return out;
}

template <ResourceRecord R>
std::vector<Task<R>> load_kernels(const std::filesystem::path& csv, const KernelColumns& c = {}) {
  return parse_kernels<R>(io::CsvDocument::read(csv), c);
}

/// A linear pipeline of the kernels in the file, in file order.
template <ResourceRecord R>
Application<R> load_pipeline(const std::filesystem::path& csv, std::string name, const KernelColumns& c = {}) {
  return Application<R>::pipeline(std::move(name), load_kernels<R>(csv, c));
}

/// An architecture from JSON:
///   { "name": "AWS F1", "kind": "FPGA", "devices": 8,
///     "capacity": { "dsp": 100, ... },            // default 100 for each
///     "static_power_w": 4.498,
///     "clock": { "nominal_mhz": 250, "degradation_mhz": 0, "utilisation_resource": "dsp",
///                "levels": [0.5, 0.75, 1.0] },
///     "memory": { "read_gb_per_s": 19.2, "write_gb_per_s": 19.2, "port_bytes_per_cycle": 64,
///                 "static_power_w": 0.5, "full_read_power_w": 0.672, "full_write_power_w": 0.4 },
///     "host_to_device_gb_per_s": 9.4, "device_to_host_gb_per_s": 9.4 }
/// Every key but "devices" is optional; keys starting with `_` are notes;
/// other unknown keys are errors.
template <ResourceRecord R>
Platform<R> parse_architecture(const io::JsonValue& root) {
  io::check_keys(root, {"name", "kind", "devices", "capacity", "static_power_w", "clock", "memory",
                        "host_to_device_gb_per_s", "device_to_host_gb_per_s"});
  Platform<R> a;
  if (const auto* v = root.find("name")) a.name = v->string();
  if (const auto* v = root.find("kind")) a.kind().name = v->string();
  const auto& devices = root.at("devices");
  const long n = devices.integer();
  if (n < 1 || n > 4096)
    io::fail_at(devices, "must be between 1 and 4096");
  a.group().devices = static_cast<int>(n);
  if (const auto* cap = root.find("capacity"))
    for (const auto& [key, value] : cap->items()) {
      if (!has_resource<R>(key)) {
        std::string valid;
        for (const auto& r : resource_names<R>()) valid += (valid.empty() ? "" : ", ") + r;
        io::fail_at(value, "no such resource (this kind has: " + valid + ")");
      }
      set_resource(a.kind().capacity, key, io::positive(*cap, key));
    }
  a.kind().static_power = io::non_negative_or(root, "static_power_w", 0) * units::W;
  if (const auto* clock = root.find("clock")) {
    io::check_keys(*clock, {"nominal_mhz", "degradation_mhz", "utilisation_resource", "levels"});
    a.kind().clock.nominal = io::non_negative_or(*clock, "nominal_mhz", 0) * units::MHz;
    a.kind().clock.degradation_per_utilisation = io::non_negative_or(*clock, "degradation_mhz", 0) * units::MHz;
    if (const auto* r = clock->find("utilisation_resource")) {
      if (!has_resource<R>(r->string()))
        io::fail_at(*r, "no such resource");
      a.kind().clock.utilisation_resource = r->string();
    }
    if (const auto* levels = clock->find("levels"))
      for (const auto& l : levels->elements()) {
        const double x = l.number();
        if (!(x > 0 && x <= 1))
          io::fail_at(l, "a clock level is a fraction of the nominal clock in (0, 1]");
        a.kind().clock.levels_fraction.push_back(x);
      }
  }
  if (const auto* mem = root.find("memory")) {
    io::check_keys(*mem, {"read_gb_per_s", "write_gb_per_s", "port_bytes_per_cycle", "static_power_w",
                          "full_read_power_w", "full_write_power_w"});
    a.kind().memory.read_bandwidth = io::non_negative_or(*mem, "read_gb_per_s", 0) * units::GB_per_s;
    a.kind().memory.write_bandwidth = io::non_negative_or(*mem, "write_gb_per_s", 0) * units::GB_per_s;
    a.kind().memory.port_bytes_per_cycle = io::non_negative_or(*mem, "port_bytes_per_cycle", 0) * units::B;
    a.kind().memory.static_power = io::non_negative_or(*mem, "static_power_w", 0) * units::W;
    a.kind().memory.full_read_power = io::non_negative_or(*mem, "full_read_power_w", 0) * units::W;
    a.kind().memory.full_write_power = io::non_negative_or(*mem, "full_write_power_w", 0) * units::W;
  }
  a.host_to_device.bandwidth = io::non_negative_or(root, "host_to_device_gb_per_s", 0) * units::GB_per_s;
  a.device_to_host.bandwidth = io::non_negative_or(root, "device_to_host_gb_per_s", 0) * units::GB_per_s;
  return a;
}

template <ResourceRecord R>
Platform<R> load_architecture(const std::filesystem::path& json) {
  return parse_architecture<R>(io::JsonValue::read(json));
}

// The instances for the records ychart ships, compiled once in ychart's
// compiled part (impl/src_pipeline.hpp); header-only, or for a record of the
// user's own, the templates above are instantiated where they are used.
#define YCHART_DSE_LOAD_INSTANCES(EXTERN, R) \
  EXTERN template std::vector<Task<R>> parse_kernels<R>(const io::CsvDocument&, const KernelColumns&); \
  EXTERN template std::vector<Task<R>> load_kernels<R>(const std::filesystem::path&, const KernelColumns&); \
  EXTERN template Application<R> load_pipeline<R>(const std::filesystem::path&, std::string, const KernelColumns&); \
  EXTERN template Platform<R> parse_architecture<R>(const io::JsonValue&); \
  EXTERN template Platform<R> load_architecture<R>(const std::filesystem::path&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_LOAD_INSTANCES(extern, FpgaResources)
#endif

}  // namespace ychart::pipeline
