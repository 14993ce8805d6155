#pragma once
// Which device functions of one parse nvcc emits, and which kernel reaches each.
//
// What nvcc 13 does (whole-program mode: no -rdc, no -G, as kernel-builder compiles; verified on
// small files, see skills/cuda-kernels/references/rules/arch-mismatch.md):
//  - it emits every __global__ function that is not a template pattern (static ones too, and
//    each instantiation of a kernel template);
//  - it emits a __device__ function only when an emitted function calls it or takes its
//    address, whatever its linkage (static, inline, __forceinline__, anonymous namespace, or
//    external: unused external device functions are dropped too), and a function whose address
//    a __device__ / __constant__ variable's initializer takes;
//  - it emits no template that is never instantiated, and an instantiation only as above.
// ptxas checks inline PTX only in emitted functions, so a PTX instruction elsewhere never fails.
//
// The graph: nodes are the device functions with bodies in the user's files that are not
// templates' patterns (plain functions, template instantiations, members of class template
// instantiations, lambda call operators, implicit special members); a body's edges go to every
// function it names (calls and addresses), the constructor, destructor and virtual functions of
// each class it constructs, operator new / delete, the destructors of temporaries, the call
// operators of the lambdas it creates (they may be called where no body is visible, e.g. inside
// a system header), and the overriders of the virtual functions it names. Conservative where
// nvcc's optimizer is not: a call after `if (false)` counts, an unused constructed object keeps
// its class's virtual functions.
//
// Cost: one walk over the user's declarations to list the functions, then one walk over each
// reachable body. The object borrows the ASTContext's declarations: use it while the AST lives,
// on the thread that owns the parse.
#include <unordered_map>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace kl::analyzers {

class SourceView;

class DeviceReachability {
 public:
  DeviceReachability(clang::ASTContext& context, const SourceView& view);

  // The nodes, in the order the user's declarations list them: every device function with a
  // body in the user's files that is not a template pattern.
  const std::vector<const clang::FunctionDecl*>& functions() const { return functions_; }

  // Whether nvcc emits `function` (any declaration of it) for this parse.
  bool is_emitted(const clang::FunctionDecl& function) const;

  // The first kernel, in declaration order, whose calls reach `function`; null when `function`
  // is itself a kernel, is not emitted, or is reached only from a variable's initializer.
  const clang::FunctionDecl* reaching_kernel(const clang::FunctionDecl& function) const;

 private:
  void reach_from(const clang::FunctionDecl* root, const clang::FunctionDecl* kernel);

  clang::ASTContext& context_;
  std::vector<const clang::FunctionDecl*> functions_;
  std::vector<const clang::FunctionDecl*> variable_roots_;  // named by device variables' initializers
  // Canonical declaration of a virtual function -> the methods (nodes) that override it.
  std::unordered_map<const clang::FunctionDecl*, std::vector<const clang::FunctionDecl*>> overriders_;
  // Canonical declaration of an emitted function -> the kernel that reaches it (null: see above).
  std::unordered_map<const clang::FunctionDecl*, const clang::FunctionDecl*> reached_;
};

}  // namespace kl::analyzers
