// ychart/pipeline/architecture.hpp
// The architecture side of the Y-chart: a host and a number of identical
// devices of one kind (FPGA, GPU, CPU), the kind's resource record, the
// links between host and devices, each device's local memory (DDR), its
// clock (nominal, levels, degradation with utilisation) and its power
// constants. Every quantity is typed with its unit.
#pragma once

#include "resources.hpp"

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/unit.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace ychart::pipeline {

/// A link such as PCIe between host and devices.
struct Link {
  std::string name;
  Constant<dim::bandwidth> bandwidth{};
};

/// A device's local memory (DDR) and its ports, as the chapter-4 model of
/// study 001 sees them: CUs reading share min(port, DDR / readers).
struct LocalMemory {
  Constant<dim::bandwidth> read_bandwidth{};   // BDR
  Constant<dim::bandwidth> write_bandwidth{};  // BDW
  Constant<dim::data> port_bytes_per_cycle{};  // AXI port width: BX_f = width x clock
  // Power (study 001, chapter 5): static, and dynamic at full bandwidth.
  Constant<dim::power> static_power{};      // P_DDRs
  Constant<dim::power> full_read_power{};   // P_DDRdr(1)
  Constant<dim::power> full_write_power{};  // P_DDRdw(1)
};

/// How a device's clock behaves.
struct Clock {
  Constant<dim::frequency> nominal{};  // FCK: the fastest the device runs
  // Linear degradation with utilisation (chapter 4): F = F1 - psi * u,
  // u = the named resource's use on the device as a fraction of its capacity.
  Constant<dim::frequency> degradation_per_utilisation{};  // psi, e.g. GHz per unit of u
  std::string utilisation_resource;                        // e.g. "dsp"
  std::vector<double> levels_fraction;                     // allowed clocks as fractions of nominal; empty: continuous
};

/// One kind of device.
template <ResourceRecord R>
struct DeviceKind {
  std::string name;                  // "FPGA"
  R capacity = uniform_resources<R>(100.0);  // what one device offers, in the same units as Kernel::use
  Constant<dim::power> static_power{};       // per powered-on device (logic and I/O)
  LocalMemory memory{};
  Clock clock{};
};

/// A host and `devices` identical devices of one kind.
template <ResourceRecord R>
struct Architecture {
  std::string name;
  DeviceKind<R> kind;
  int devices = 1;
  Link host_to_device{"host-to-device", {}};
  Link device_to_host{"device-to-host", {}};

  void validate() const {
    if (devices < 1) throw model_error("ychart: architecture '" + name + "' needs at least one device", name);
    for_each_resource(kind.capacity, [&](std::string_view r, double v) {
      if (!(v > 0.0) || !std::isfinite(v))
        throw model_error("ychart: architecture '" + name + "': capacity of " + std::string(r) +
                          " must be positive and finite", name);
    });
    if (!kind.clock.utilisation_resource.empty() && !has_resource<R>(kind.clock.utilisation_resource))
      throw model_error("ychart: architecture '" + name + "': clock degradation names resource '" +
                        kind.clock.utilisation_resource + "', which " + kind.name + " does not have", name);
  }
};

}  // namespace ychart::pipeline
