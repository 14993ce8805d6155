#pragma once
// Questions about clang declarations that several collectors ask: is this device code, what is
// its user-facing name, what constant does this expression have. Header only declares; the
// clang includes stay in the .cpp files that need them.
#include <cstdint>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class NamedDecl;
class Stmt;
class VarDecl;
}  // namespace clang

namespace kl::analyzers {

// __global__ or __device__ (including __host__ __device__), with a body.
bool is_device_function(const clang::FunctionDecl& function);
bool is_kernel(const clang::FunctionDecl& function);
// Qualified name with inline namespaces (cooperative_groups::__v1) left out.
std::string qualified_name(const clang::NamedDecl& decl);
// The value of an integer constant expression (after evaluation), if it has one.
std::optional<int64_t> constant_value(const clang::Expr* expr, const clang::ASTContext& context);
// The value of an integral variable that is a constant where it is used: constexpr, or const
// with a constant initializer (in a template instantiation, one computed from its parameters).
std::optional<int64_t> integral_constant(const clang::VarDecl& var, const clang::ASTContext& context);
// The expression with implicit casts, parentheses and temporaries peeled off.
const clang::Expr* strip(const clang::Expr* expr);

}  // namespace kl::analyzers
