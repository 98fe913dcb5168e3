// ychart/units/fpga_resources.hpp
// FPGA resource kinds as dimensions of their own, so that a LUT count cannot
// be added to a block-RAM count and block RAMs counted in 18 Kb and in 36 Kb
// halves compare correctly: dim::bram (in 18 Kb blocks, FINN's BRAM_18K),
// dim::lut, dim::uram and dim::dsp, with the units BRAM_18K, BRAM_36K
// (= 2 BRAM_18K), LUT, URAM and DSP. `144 * units::BRAM_36K` is 288 BRAM_18K:
// the Kria KV260's block RAM, which study 004 compared as 144 BRAM_18K.
#pragma once

#include "dimension.hpp"
#include "unit.hpp"

#include <ratio>

namespace ychart::dim {
using bram = units::base_dimension<"BRAM_18K">;
using lut = units::base_dimension<"LUT">;
using uram = units::base_dimension<"URAM">;
using dsp = units::base_dimension<"DSP">;
}  // namespace ychart::dim

namespace ychart::units {
inline constexpr unit<dim::bram> BRAM_18K{};
inline constexpr unit<dim::bram, std::ratio<2>> BRAM_36K{};  // one 36 Kb block = two 18 Kb halves
inline constexpr unit<dim::lut> LUT{};
inline constexpr unit<dim::uram> URAM{};
inline constexpr unit<dim::dsp> DSP{};
}  // namespace ychart::units
