#pragma once
// Type questions that survive whatever clang hands the model. Public code reaches the model
// with types that are null (an error-recovery ParenListExpr, `int b(nope())`), dependent (a
// template pattern: `T *p`, `__shared__ int s[N]`), undeduced (`auto` in a pattern), incomplete
// (a forward-declared struct) or marked as containing errors (RecoveryExpr). Asking clang for the
// size, alignment or layout of any of those is undefined behaviour (a crash, or a stack overflow
// in getDeclAlign); the model treats them as "unknown" instead. Every walk over clang nodes asks
// through these functions rather than calling `->` on a QualType it did not check.
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>

#include <cstdint>
#include <optional>

namespace kl::analyzers {

// A type whose size and alignment clang can compute without touching undefined state.
inline bool is_concrete_type(clang::QualType type) {
  if (type.isNull()) return false;
  const clang::Type* t = type.getTypePtrOrNull();
  if (!t) return false;
  if (t->containsErrors() || t->isDependentType() || t->isUndeducedType() || t->isIncompleteType())
    return false;
  if (t->isVoidType() || t->isFunctionType() || t->isSizelessType()) return false;
  // Variably modified types (a runtime-sized local array) have no compile-time size.
  return !t->isVariablyModifiedType();
}

// The referenced type for references, the type itself otherwise; null stays null.
inline clang::QualType non_reference(clang::QualType type) {
  return type.isNull() ? type : type.getNonReferenceType();
}

inline bool is_integral_type(clang::QualType type) {
  return !type.isNull() && type->isIntegralOrEnumerationType();
}
inline bool is_pointer_type(clang::QualType type) { return !type.isNull() && type->isPointerType(); }
inline bool is_reference_type(clang::QualType type) { return !type.isNull() && type->isReferenceType(); }
inline bool is_array_type(clang::QualType type) { return !type.isNull() && type->isArrayType(); }
inline bool is_boolean_type(clang::QualType type) { return !type.isNull() && type->isBooleanType(); }

// The element type behind a pointer or an array (after references); null when there is none.
inline clang::QualType pointee_type(clang::QualType type) {
  type = non_reference(type);
  if (type.isNull()) return {};
  if (const auto* pointer = type->getAs<clang::PointerType>()) return pointer->getPointeeType();
  if (const auto* array = type->getAsArrayTypeUnsafe()) return array->getElementType();
  return {};
}

inline std::optional<int64_t> concrete_size(const clang::ASTContext& context, clang::QualType type) {
  type = non_reference(type);
  if (!is_concrete_type(type)) return std::nullopt;
  return context.getTypeSizeInChars(type).getQuantity();
}

// 0 when the alignment cannot be known.
inline uint64_t concrete_alignment(const clang::ASTContext& context, clang::QualType type) {
  type = non_reference(type);
  if (!is_concrete_type(type)) return 0;
  return static_cast<uint64_t>(context.getTypeAlignInChars(type).getQuantity());
}

// The alignment of a variable as declared (its type's, raised by __align__/alignas); 0 when the
// type or an alignment attribute still depends on a template parameter.
inline uint64_t declared_alignment(const clang::ASTContext& context, const clang::VarDecl& variable) {
  clang::QualType type = variable.getType();
  if (type.isNull() || type->containsErrors() || type->isDependentType() || type->isUndeducedType()) return 0;
  for (const auto* aligned : variable.specific_attrs<clang::AlignedAttr>())
    if (aligned->isAlignmentDependent() || aligned->isAlignmentErrorDependent()) return 0;
  // getDeclAlign handles incomplete arrays (`extern __shared__ float s[]`) by their element.
  if (type->isIncompleteType() && !type->isIncompleteArrayType()) return 0;
  if (type->isIncompleteArrayType()) {
    clang::QualType element = context.getAsArrayType(type)->getElementType();
    if (!is_concrete_type(element)) return 0;
  }
  return static_cast<uint64_t>(context.getDeclAlign(&variable).getQuantity());
}

}  // namespace kl::analyzers
