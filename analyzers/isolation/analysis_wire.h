#pragma once
// The messages between an IsolatedAnalyzer and its worker processes: one JSON object per line
// over a socket. Requests carry what Analyzer's entry points take (settings once at start, then
// a file with its text and, for the server, the editor's copy of its build.toml); replies carry
// a FileAnalysis.
//
// What crosses: everything a caller of the analyzers reads — findings, timings, the arch
// selection, the build.toml in force, missing headers, the facts the server's hovers and
// symbols use (kernels, launches, opt-ins, feature uses), and the per-kernel coverage the CLI
// reports. Not the per-access records (`facts.accesses`): only the rules read those, and they
// run inside the worker, which sums them into `coverage` before the reply.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "analyzers/isolation/worker_channel.h"

namespace kl::analyzers {

enum class WorkerOperation { Source, BuildToml, Forget, ForgetAll, Cancel };

// The editor's unsaved build.toml, sent as text: the worker parses it itself.
struct ProjectText {
  std::filesystem::path build_toml;
  std::string text;
};

struct WorkerRequest {
  uint64_t id = 0;
  WorkerOperation operation = WorkerOperation::Source;
  std::filesystem::path file;
  std::string text;
  std::optional<ProjectText> project;
};

struct WorkerReply {
  uint64_t id = 0;
  // An early result (PartialAnalysisSink) of the request `id`; its final reply follows.
  bool partial = false;
  std::optional<FileAnalysis> analysis;  // absent when the analysis threw
  std::string error;                     // the exception's message, when it threw
};

nlohmann::json settings_to_json(const AnalysisSettings& settings);
AnalysisSettings settings_from_json(const nlohmann::json& json);

// Texts travel as blobs (see worker_channel.h); the rest in the header. Decoding throws
// std::exception on a message that does not have the expected shape.
ChannelMessage encode_request(const WorkerRequest& request);
WorkerRequest decode_request(const ChannelMessage& message);

ChannelMessage encode_reply(const WorkerReply& reply);
WorkerReply decode_reply(const ChannelMessage& message);

// Exposed for tests: the round trip of what a server reads from an analysis.
nlohmann::json analysis_to_json(const FileAnalysis& analysis);
FileAnalysis analysis_from_json(const nlohmann::json& json);

}  // namespace kl::analyzers
