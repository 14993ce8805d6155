#pragma once
// textDocument/codeLens: the Build and Benchmark lenses of a kernel project's files, and what the
// project's newest build measured. On a CUDA source, per kernel: Build, Benchmark and one short
// resource lens (registers, spills, shared memory, occupancy; every capability in its tooltip
// and in its kernel-lsp.showUsage command, which build_controller.h answers), marked stale when a
// file the build read has changed since. On build.toml: Build, Benchmark and the last build's
// summary. The builds themselves are BuildController's; this reads them.
//
// Threading: handlers on the I/O thread; a source's lenses are answered once its analysis is read.
#include <filesystem>
#include <string>

#include "lsp/core/kernel_server.h"
#include "lsp/protocol/dispatcher.h"
#include "lsp/server/build_controller.h"
#include "lsp/server/client_capabilities.h"

namespace kl::lsp {

class CodeLenses {
 public:
  CodeLenses(KernelServer& kernel, const ClientCapabilities& client, const BuildController& builds);

  void code_lens(const json& params, const Reply& reply) const;

 private:
  json source_lenses(const std::filesystem::path& file, const std::string& text,
                     const analyzers::UnitFacts* facts) const;
  json build_toml_lenses(const std::filesystem::path& file, const std::string& text) const;

  KernelServer& kernel_;
  const ClientCapabilities& client_;
  const BuildController& builds_;
};

}  // namespace kl::lsp
