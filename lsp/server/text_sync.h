#pragma once
// textDocument/didChange: applies contentChanges in order, each against the text the previous
// one produced. A change without `range` replaces the whole text; ranges are in the negotiated
// encoding. A position past the end of its line, or past the last line, clamps to that end, as
// LSP 3.17 says of Position. A range that ends before it starts, a negative or non-integer
// position, or a change without a string `text` is refused: the server does not guess what the
// editor meant. Cost: O(text) per ranged change.
//
// TextSync adds what a refused change means for the document (see docs/LSP.md, "Malformed
// input"). The changes of one didChange apply all or none. After a refused one, every later
// ranged change refers to a text the server never had, so the document is *out of sync*: its
// text stays the last one the server could follow, ranged changes are not applied, and the LSP
// layer publishes nothing computed from it. A change carrying the whole text (no `range`) or
// reopening the document brings it back. Threading: apply() and reset() on the I/O thread;
// in_sync() from any thread (analyses finish on workers).
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

// Both throw RpcException(InvalidParams) for a change they refuse; by then
// apply_content_changes may have applied the changes before it, so callers work on a copy
// (TextSync does).
void apply_content_change(std::string& text, const json& change, PositionEncoding encoding);
void apply_content_changes(std::string& text, const json& changes, PositionEncoding encoding);

struct SyncOutcome {
  enum class Kind {
    Applied,    // `text` is the document's new text
    Lost,       // refused (`problem` says why): the document has just gone out of sync
    StillLost,  // out of sync already; no whole text came to recover with (`problem` may say more)
  };
  Kind kind = Kind::Applied;
  std::string text;
  std::string problem;
};

class TextSync {
 public:
  // `text` is the server's copy of the document: the last text it could follow.
  SyncOutcome apply(const std::filesystem::path& file, std::string_view text, const json& changes,
                    PositionEncoding encoding);
  // didOpen (the editor's whole text is known again) and didClose.
  void reset(const std::filesystem::path& file);
  bool in_sync(const std::filesystem::path& file) const;

 private:
  void set_in_sync(const std::filesystem::path& file, bool in_sync);

  mutable std::mutex mutex_;
  std::set<std::filesystem::path> out_of_sync_;
};

}  // namespace kl::lsp
