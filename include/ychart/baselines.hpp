// ychart/baselines.hpp
// The studies' own methods, kept as baselines to compare ychart's exact
// answers with, each as its thesis states it (with its errata) and tested:
// study 000's alpha-penalty sweep (baselines/alpha_penalty.hpp), study 001's
// Algorithms 1-4 and heuristics H1 and H2 (baselines/shan2021.hpp,
// baselines/shan2021_h1.hpp) and study 003's evolutionary search
// (baselines/evolutionary.hpp); and the random and pruned exhaustive mappers
// of loop nests that accelerator mappers use (baselines/mappers.hpp). They
// sit above the problem classes and make no optimality claim; namespace
// ychart::baselines.
#pragma once

#include "core.hpp"
#include "baselines/alpha_penalty.hpp"
#include "baselines/shan2021.hpp"
#include "baselines/shan2021_h1.hpp"
#include "baselines/evolutionary.hpp"
#include "baselines/mappers.hpp"
