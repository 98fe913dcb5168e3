// ychart/pipeline/detail/memory_energy.hpp
// The device memory's dynamic energy in study 001's power model (eqs.
// 5.17-5.19), in one place for the evaluator and the exact power model:
// what the host transfers of one kernel cost the DDR, and what one CU's
// reads and writes cost per second of execution.
#pragma once

#include "../application.hpp"
#include "../architecture.hpp"
#include "../resources.hpp"

namespace ychart::pipeline::detail {

/// Joules per run of kernel k's input written into `copies` devices' DDR
/// (eq. 5.17).
template <ResourceRecord R>
double host_write_energy(const Implementation<R>& k, const LocalMemory& mem, double copies) {
  return copies * mem.full_write_power.value() * k.ddr.host_write * k.ddr.host_write_time.value();
}

/// Joules per run of kernel k's output read back to the host once (eq. 5.18).
template <ResourceRecord R>
double host_read_energy(const Implementation<R>& k, const LocalMemory& mem) {
  return mem.full_read_power.value() * k.ddr.host_read * k.ddr.host_read_time.value();
}

/// Joules per run of kernel k's host transfers: its input written into
/// `copies` devices' DDR and its output read once.
template <ResourceRecord R>
double host_transfer_energy(const Implementation<R>& k, const LocalMemory& mem, double copies) {
  return host_write_energy(k, mem, copies) + host_read_energy(k, mem);
}

/// Watts one executing CU of kernel k draws from its DDR (eq. 5.19).
template <ResourceRecord R>
double cu_memory_power(const Implementation<R>& k, const LocalMemory& mem) {
  return mem.full_read_power.value() * k.ddr.cu_read + mem.full_write_power.value() * k.ddr.cu_write;
}

}  // namespace ychart::pipeline::detail
