// Accesses the interpreter cannot read off expressions: inline PTX (operands evaluated, memory
// instructions recorded through their address operands) and calls into library code (what
// library_accesses.h says the callee does). See access_interpreter_impl.h for the contracts.
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <set>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/asm_operands.h"
#include "analyzers/model/device_code.h"

namespace kl::analyzers {

using interpreter::Env;
using interpreter::LValue;
using interpreter::Value;

namespace {

bool is_store(PtxMemoryAccess::Kind kind) { return kind != PtxMemoryAccess::Kind::Load; }

}  // namespace

clang::QualType AccessInterpreter::Impl::unsigned_of_bytes(uint32_t bytes) const {
  switch (bytes) {
    case 1: return ctx.UnsignedCharTy;
    case 2: return ctx.UnsignedShortTy;
    case 4: return ctx.UnsignedIntTy;
    case 8: return ctx.UnsignedLongLongTy;
    case 16: return ctx.getVectorType(ctx.UnsignedIntTy, 4, clang::VectorKind::Generic);
    default: return {};
  }
}

void AccessInterpreter::Impl::exec_asm(const clang::GCCAsmStmt* statement, Env& env) {
  const clang::StringLiteral* literal = statement->getAsmString();
  std::vector<PtxMemoryAccess> accesses;
  if (literal && literal->getCharByteWidth() == 1) accesses = ptx_memory_accesses(literal->getString());
  unsigned outputs = statement->getNumOutputs();
  std::set<int> addresses;
  for (const PtxMemoryAccess& a : accesses) addresses.insert(address_operand_number(*statement, a));

  // Inputs in order: a memory lvalue operand is read (`"r"(x[i])`); an address operand is
  // evaluated through its casts, for the pointer.
  std::vector<Value> inputs(statement->getNumInputs());
  for (unsigned i = 0; i < statement->getNumInputs(); ++i) {
    const clang::Expr* input = statement->getInputExpr(i);
    bool address = addresses.count(static_cast<int>(outputs + i)) > 0;
    inputs[i] = eval(address ? pointer_under_casts(input) : input, env);
  }

  for (const PtxMemoryAccess& a : accesses) {
    int n = address_operand_number(*statement, a);
    if (n < static_cast<int>(outputs)) {  // an address in a PTX register or a read-write operand
      if (a.space == MemorySpace::Global)
        record_untracked(statement->getSourceRange(), a.kind, a.width, a.mnemonic, "an address computed in the asm", env);
      continue;
    }
    unsigned input = static_cast<unsigned>(n) - outputs;
    if (input >= inputs.size()) continue;
    uint32_t width = a.width;
    if (auto c = constant_value(asm_operand(*statement, a.width_operand), ctx); c && *c > 0)
      width = static_cast<uint32_t>(*c);
    const clang::Expr* operand = statement->getInputExpr(input);
    Value address = inputs[input];
    if (a.offset != 0 && address.kind == Value::Kind::Pointer)
      if (auto moved = address.form.plus(Poly::constant(a.offset))) address.form = *moved;
    if (address.kind == Value::Kind::Pointer && address.base >= 0 && width > 0) {
      record_instruction(operand, address, width, a.kind, a.mnemonic, env);
    } else if (a.space == MemorySpace::Global) {
      record_untracked(operand->getSourceRange(), a.kind, width, a.mnemonic,
                       "`" + text_of(operand) + "`, which the model does not follow", env);
    }
  }

  // Outputs: a memory lvalue is written (`"=h"(y[i])`), read first when it is "+"; a variable
  // gets a value the model does not know.
  for (unsigned i = 0; i < outputs; ++i) {
    const clang::Expr* output = statement->getOutputExpr(i);
    bool read_write = statement->getOutputConstraint(i).starts_with("+");
    LValue lv = eval_lvalue(output, env);
    if (lv.kind == LValue::Kind::Memory) {
      if (read_write) record(output, lv.address, lv.type, false, false, env);
      record(output, lv.address, lv.type, true, false, env);
    } else if (lv.kind == LValue::Kind::Var && !quiet) {
      havoc(lv.var, env);
    }
  }

  // `bar.sync 0;`, `barrier.sync.aligned 0;` (access_sync.cpp).
  if (literal && literal->getCharByteWidth() == 1) {
    std::string spelling;
    if (BarrierScope scope = ptx_barrier(literal->getString(), spelling); scope != BarrierScope::None)
      pass_barrier(statement->getSourceRange(), scope, "`" + spelling + "`", env, ptx_barrier_aligned(spelling));
  }
}

void AccessInterpreter::Impl::record_instruction(const clang::Expr* operand, const Value& address, uint32_t width,
                                                 PtxMemoryAccess::Kind kind, const std::string& instruction,
                                                 Env& env) {
  clang::QualType type = unsigned_of_bytes(width);
  if (type.isNull()) {
    record_untracked(operand->getSourceRange(), kind, width, instruction, "`" + text_of(operand) + "`", env);
    return;
  }
  // A vector instruction needs its width's alignment, as a cast to a wider type does.
  Value widened = address;
  widened.widened = widened.widened || width >= 8;
  size_t before = out ? out->size() : 0;
  record(operand, widened, type, is_store(kind), kind == PtxMemoryAccess::Kind::Atomic, env);
  if (out && out->size() > before) out->back().type_name = instruction;
}

void AccessInterpreter::Impl::record_untracked(clang::SourceRange where, PtxMemoryAccess::Kind kind, uint32_t width,
                                               const std::string& instruction, const std::string& via,
                                               const Env& env) {
  if (quiet || host_mode || !out || env.dead) return;
  if (!view.is_user_location(where.getBegin())) return;
  MemoryAccess m = placed_record(where);
  m.is_store = is_store(kind);
  m.is_atomic = kind == PtxMemoryAccess::Kind::Atomic;
  m.space = MemorySpace::Global;
  m.base_name = via;
  m.type_name = instruction;
  m.width = width;
  m.pattern = LanePattern::Unknown;
  out->push_back(std::move(m));
}

void AccessInterpreter::Impl::record_library_call(const clang::Expr* call, const clang::FunctionDecl* callee,
                                                  const std::vector<const clang::Expr*>& args,
                                                  const std::vector<Value>& values, Env& env) {
  if (quiet || host_mode || !out || env.dead || !callee) return;
  const clang::FunctionDecl* definition = callee->getDefinition();
  // The user's own functions are the interpreter's to follow (past the inlining depth, unseen).
  if (!definition || !definition->hasBody() || view.is_user_location(definition->getLocation())) return;
  const LibraryAccesses& summary = library.of(*definition);
  if (summary.synchronizes != BarrierScope::None)
    pass_barrier(call->getSourceRange(), summary.synchronizes,
                 "`" + definition->getNameAsString() + "` (it synchronises the block)", env);
  if (summary.empty()) return;
  std::string callee_name = definition->getNameAsString();
  for (const ParameterAccess& access : summary.through_parameters) {
    if (access.parameter >= args.size() || access.parameter >= values.size()) continue;
    const Value& address = values[access.parameter];
    std::string instruction = access.instruction + " in `" + callee_name + "`";
    if (address.kind == Value::Kind::Pointer && address.base >= 0 && access.width > 0)
      record_instruction(args[access.parameter], address, access.width, access.kind, instruction, env);
    else
      record_untracked(args[access.parameter]->getSourceRange(), access.kind, access.width, instruction,
                       "`" + text_of(args[access.parameter]) + "`, which the model does not follow", env);
  }
  if (summary.loads)
    record_untracked(call->getSourceRange(), PtxMemoryAccess::Kind::Load, 0, "`" + callee_name + "`",
                     "global memory read inside `" + callee_name + "`: " + summary.load_via, env);
  if (summary.stores)
    record_untracked(call->getSourceRange(), PtxMemoryAccess::Kind::Store, 0, "`" + callee_name + "`",
                     "global memory written inside `" + callee_name + "`: " + summary.store_via, env);
}

}  // namespace kl::analyzers
