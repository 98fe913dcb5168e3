// ychart/loopnest.hpp
// Study 002's class: CNN layers as loop nests on ALOHA's platform model
// (memories, I/O channels, tiling), evaluation, CNN schedules, the JSON
// loader, exact bindings and accelerator design.
#pragma once

#include "core.hpp"
#include "loopnest/layer.hpp"
#include "loopnest/platform.hpp"
#include "loopnest/refine.hpp"
#include "loopnest/evaluate.hpp"
#include "loopnest/cnn.hpp"
#include "loopnest/load.hpp"
#include "loopnest/binding_model.hpp"
#include "loopnest/design_model.hpp"
