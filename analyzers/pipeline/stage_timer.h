#pragma once
// Measures one stage of an analysis for FileAnalysis::timings ("toolkit", "project",
// "parse sm_90", "rules"): the clock starts when the timer is made, record() adds the time
// elapsed so far under the stage's name. Internal to the pipeline.
#include <chrono>
#include <string>
#include <vector>

#include "analyzers/pipeline/analysis.h"

namespace kl::analyzers {

class StageTimer {
 public:
  StageTimer() : started_(std::chrono::steady_clock::now()) {}

  void record(std::vector<StageTiming>& timings, std::string stage) const {
    auto elapsed = std::chrono::steady_clock::now() - started_;
    timings.push_back({std::move(stage), std::chrono::duration<double, std::milli>(elapsed).count()});
  }

 private:
  std::chrono::steady_clock::time_point started_;
};

}  // namespace kl::analyzers
