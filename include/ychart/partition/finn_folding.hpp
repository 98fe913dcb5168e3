// ychart/partition/finn_folding.hpp
// A folded partition (folding_model.hpp) in the JSON form of FINN's folding
// configuration, the file FINN's ApplyConfig transformation applies (and
// build_dataflow's folding_config_file names), so that a FINN build takes
// the proven folding as it is:
//   { "Defaults": {},
//     "MVAU_hls_0": { "PE": 16, "SIMD": 8, "ram_style": "block" },
//     "Thresholding_rtl_1": { "PE": 16 },
//     "ConvolutionInputGenerator_rtl_0": { "SIMD": 3 } }
// One entry per node of each segment the partition puts on the FPGA, keyed
// by FoldableNode::name, with the attributes its FinnAttributes names (FINN
// rejects others); nodes of CPU segments and nodes with no attributes are
// not in the file. read_finn_folding() maps such a file back to the choice
// of options, so a configuration edited or written elsewhere can be
// evaluated with with_folding().
#pragma once

#include "../config.hpp"
#include "folding_model.hpp"

#include "../io/json.hpp"

#include <ostream>
#include <vector>

namespace ychart::partition {

/// Writes the folding `choice` (per segment, per node: an option index, or
/// -1 for a segment on the CPU) of `nodes` as a FINN folding configuration.
/// graph_error, naming the node, when the choice does not fit the nodes, two
/// written nodes share a name, a name is FINN's reserved "Defaults", PE or
/// SIMD is not a whole number of at least 1, or a ram_style is missing or
/// not one of FINN's ("auto", "block", "distributed", "ultra").
YCHART_DECL void write_finn_folding(std::ostream& out, const FoldableGraph& nodes,
                                    const std::vector<std::vector<int>>& choice);

/// The folding of a solved partition; model_error if the solve found none.
YCHART_DECL void write_finn_folding(std::ostream& out, const FoldableGraph& nodes, const FoldedPartition& r);

/// The choice a FINN folding configuration makes: a segment whose written
/// nodes all have entries is on the FPGA, each such node at the first option
/// with the entry's PE, SIMD and ram_style (those its FinnAttributes names;
/// other attributes, such as FINN's mem_mode, and "Defaults" are not read),
/// and each node without attributes at its only option. A segment none of
/// whose nodes has an entry is on the CPU (-1), and so is a segment with no
/// node that has attributes: a file cannot place it. parse_error, at the
/// entry, for an entry that names no node, matches none of its node's
/// options, or leaves out other nodes of its segment.
YCHART_DECL std::vector<std::vector<int>> read_finn_folding(const io::JsonValue& config, const FoldableGraph& nodes);

}  // namespace ychart::partition

#if YCHART_HEADER_ONLY
#include "impl/finn_folding.ipp"
#endif
