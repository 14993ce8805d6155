#pragma once
// Settings as JSON (initializationOptions, workspace/configuration, didChangeConfiguration) →
// Settings. Accepts the section itself or an object holding it under "kernelLsp". Values of
// the wrong type are reported and ignored, never fatal. Pure.
#include <string>
#include <vector>

#include "lsp/protocol/json_rpc.h"
#include "lsp/workspace/settings.h"

namespace kl::lsp {

inline constexpr const char* kSettingsSection = "kernelLsp";

// Overlays the keys present in `object` onto `settings`; `problems` gets one line per bad value.
void merge_settings(Settings& settings, const json& object, std::vector<std::string>& problems);

}  // namespace kl::lsp
