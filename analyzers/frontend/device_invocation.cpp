#include "analyzers/frontend/device_invocation.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/Utils.h>

namespace kl::analyzers {

std::shared_ptr<clang::CompilerInvocation> device_invocation(const std::vector<std::string>& argv) {
  std::vector<const char*> args;
  args.reserve(argv.size());
  for (const auto& a : argv) args.push_back(a.c_str());

  auto diag_options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::IgnoringDiagConsumer ignore;
  clang::CreateInvocationOptions options;
  options.Diags = clang::CompilerInstance::createDiagnostics(diag_options.get(), &ignore, false);
  options.RecoverOnError = true;
  options.ProbePrecompiled = false;
  std::shared_ptr<clang::CompilerInvocation> invocation = clang::createInvocation(args, options);
  if (!invocation) return nullptr;
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getDiagnosticOpts().ShowColors = false;
  invocation->getDiagnosticOpts().ShowCarets = false;
  return invocation;
}

}  // namespace kl::analyzers
