#pragma once
// What nvcc and the tools it drives print when a compile goes wrong, as structured messages, and
// those messages of a whole build as Findings. Four tools speak, each in its own format (CUDA 13):
//   EDG front end (cudafe++)  `a.cu(12): error: identifier "x" is undefined`,
//                             `a.cu(7): warning #177-D: ...`, `a.cu(2): note #3326-D: ...`,
//                             then the source line and a caret, then `detected during ...`
//   host compiler (gcc)       `a.cu:12:5: error: ...`, `a.cu: In function 'int main()':`,
//                             `In file included from b.h:1,`, `a.cu:4:61: note: ...`
//                             (gcc also preprocesses for nvcc: missing headers and #error are its)
//   ptxas                     `ptxas error   : Entry function '_Z1kPf' uses too much shared data`,
//                             `ptxas /tmp/tmpxft_..._a.ptx, line 26; error   : ...`, `ptxas warning : ...`
//   nvlink, nvcc itself       `nvlink error   : ...`, `nvcc fatal   : Unsupported gpu architecture ...`
// Pure text; no process runs here. Lines that none of these formats match are left out, so the
// raw output stays the place to look when a tool crashes.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"

namespace kl::runner {

struct CompilerMessage {
  analyzers::Severity severity = analyzers::Severity::Error;  // Error, Warning, Information (notes, remarks)
  std::string tool;  // "nvcc" (EDG front end), "host compiler", "ptxas", "nvlink", "nvcc fatal"
  // Absolute (relative paths are resolved against the compile's working directory); empty when
  // the tool names none, or only one of nvcc's temporary files (tmpxft_*), which is gone by now.
  std::filesystem::path file;
  std::optional<uint32_t> line;  // 0-based
  // 0-based, as the host compiler prints it (no other tool does). Its preprocessor counts in the
  // file itself; its compiler counts in cudafe++'s output, which drops each line's indentation,
  // so there the column is short by the line's leading blanks.
  std::optional<uint32_t> column;
  std::string code;            // EDG's diagnostic number, "177-D", when printed
  std::string text;            // without location or severity; continuation lines joined by "; "
  std::string entry_function;  // the (mangled) function ptxas or nvlink names, if any
  // What the tool says about it on other lines, each with its own position when it has one: EDG's
  // "detected during instantiation of ... at line N of FILE" and notes, gcc's include chain
  // ("In file included from"), "In function ...", "required from here" and notes. In print order.
  std::vector<CompilerMessage> context;
};

// Parses everything nvcc prints for one compile (stdout and stderr together). Leaves out ptxas'
// info lines (its resource report, see resource_usage.h), echoed source lines and carets, and
// summaries ("1 error detected in the compilation of ...", "Remark: The warnings can be
// suppressed ...", "compilation terminated.", "Ptx assembly aborted due to errors" after an error).
std::vector<CompilerMessage> parse_compiler_output(std::string_view output,
                                                   const std::filesystem::path& working_directory);

// The messages of one compile: which source, for which capability ("9.0a").
struct UnitMessages {
  std::filesystem::path source;
  std::string capability;
  std::vector<CompilerMessage> messages;
};

// Where the definition of a (mangled) kernel is, if the caller knows; may be empty.
using KernelLocator = std::function<std::optional<analyzers::Location>(const std::string& mangled)>;

// One Finding per distinct (file, line, column, severity, text) across all compiles, in the order
// they first appear; its message ends with the targets it occurred for, lowest first:
// `identifier "x" is undefined (sm_80, sm_90)`, and EDG's number when printed:
// `variable "y" was declared but never referenced [#177-D] (sm_80)`. Rule id "ptxas" for
// ptxas' messages and "nvcc" for all others. Context becomes notes (related locations; one
// without a position of its own points at the finding's). A message that names no file goes to
// the function it names, when `locate_kernel` finds it, and otherwise to its unit's source, line 0.
std::vector<analyzers::Finding> compiler_findings(const std::vector<UnitMessages>& units,
                                                  const KernelLocator& locate_kernel);

}  // namespace kl::runner
