#pragma once
// Which calls and instructions synchronise threads, and which threads: CUDA's barrier
// intrinsics, cooperative groups' `sync` on a block, a tile or the grid, `cuda::barrier`'s
// `arrive_and_wait`, and the PTX barrier instructions in inline asm. The access model asks this
// at each call (divergent barriers, the intervals between which shared memory races), and the
// library summaries ask it of the bodies they read (a CUB block primitive synchronises).
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <string>

namespace clang {
class CallExpr;
class FunctionDecl;
}  // namespace clang

namespace kl::analyzers {

enum class BarrierScope : uint8_t {
  None,
  Block,   // every thread of the block: __syncthreads(), block.sync(), bar.sync 0
  Subset,  // a named barrier with a thread count (`bar.sync 1, 128`), or only an arrival
  Warp,    // __syncwarp(), a tile's sync(), bar.warp.sync
  Grid,    // grid.sync()
};

struct BarrierCall {
  BarrierScope scope = BarrierScope::None;
  std::string spelling;          // "__syncthreads()", "block.sync()"
  bool block_result = false;     // __syncthreads_or/and/count: the same result in every thread
  bool aligned = true;           // compiles to an aligned barrier (bar.sync), see BarrierRecord
};

BarrierCall barrier_call(const clang::CallExpr& call);

// A member of one of CUB's block primitives (`cub::BlockReduce<…>::Sum`, BlockScan, BlockLoad,
// BlockRadixSort…): most synchronise the block inside, and the parse may not hold their bodies
// (precompiled headers keep declarations only), so a caller treats the call as ending the
// interval in which shared accesses race, without calling it a barrier of its own.
bool library_block_primitive(const clang::FunctionDecl& callee);

// The one of two scopes that synchronises more threads (Block > Subset > Warp > None; Grid
// counts as Block).
BarrierScope wider_barrier(BarrierScope a, BarrierScope b);

// The strongest barrier among the instructions of an inline-PTX string, and its spelling.
BarrierScope ptx_barrier(llvm::StringRef text, std::string& spelling);

// Whether a PTX barrier spelling is an aligned one (`bar.sync`, `barrier.sync.aligned`).
bool ptx_barrier_aligned(llvm::StringRef spelling);

}  // namespace kl::analyzers
