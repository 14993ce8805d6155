// Records: one MemoryAccess per load or store the interpreter reaches in the user's device code,
// with the warp estimator's coalescing verdict (global memory) and, for vector accesses, the
// alignment verdict from the congruence domain. See access_interpreter_impl.h for the contracts.
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecordLayout.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/access_warp.h"
#include "analyzers/model/alignment_congruence.h"
#include "analyzers/model/device_code.h"

namespace kl::analyzers {

using interpreter::Base;
using interpreter::Env;
using interpreter::Value;

namespace {

bool is_vector_record(const clang::QualType& t) {
  if (t.isNull()) return false;
  const clang::RecordDecl* rd = t->getAsRecordDecl();
  if (!rd) return false;
  if (rd->hasAttr<clang::AlignedAttr>()) return true;
  static const std::set<std::string> names = {"float2", "float4", "double2", "int2", "int4", "uint2", "uint4",
                                              "longlong2", "ulonglong2", "long2", "ulong2", "short4", "ushort4",
                                              "__half2", "half2", "__nv_bfloat162", "nv_bfloat162", "char4",
                                              "uchar4", "short2", "ushort2", "double4", "float3"};
  return names.count(rd->getNameAsString()) > 0;
}

// An atom that indexes elements (a thread or block index, a loop iteration, a value that
// varies per thread) rather than sizing them.
bool index_like(const AtomTable& atoms, AtomId a) {
  const Atom& atom = atoms[a];
  switch (atom.kind) {
    case AtomKind::ThreadIdx:
    case AtomKind::BlockIdx:
    case AtomKind::Induction:
      return true;
    case AtomKind::Quotient: {
      if (atom.variation != Variation::Uniform) return true;
      for (AtomId inner : atom.inner.atoms())
        if (index_like(atoms, inner)) return true;
      return false;
    }
    case AtomKind::Opaque:
      return atom.variation != Variation::Uniform;
    default:
      return false;
  }
}

// The terms of an offset that keep it from being a known multiple of the access width.
struct AlignmentObstacles {
  std::vector<std::pair<std::string, int64_t>> conditions;  // product of parameters, modulus
  // A condition the kernel's launches in this file break (`hidden` = 1001 for `hidden % 4 == 0`):
  // "hidden = 1001", when one does.
  std::string broken_by_launch;
  bool per_thread = false;  // a term of thread indices alone
  bool other = false;       // a constant, or indices with no parameter to blame
};

AlignmentObstacles alignment_obstacles(const AtomTable& atoms, const Poly& offset, uint64_t w,
                                       const PathFacts& facts) {
  AlignmentObstacles found;
  int need = two_adic_valuation(static_cast<int64_t>(w));
  for (const auto& term : offset.terms()) {
    Poly tp = Poly::constant(term.coefficient);
    for (AtomId a : term.atoms)
      if (auto next = tp.times(Poly::atom(a))) tp = std::move(*next);
    Congruence tc = congruence_of(atoms, tp, &facts);
    if (tc.divisible_by(w)) continue;
    if (term.atoms.empty()) {
      found.other = true;
      continue;
    }
    std::vector<AtomId> params;
    bool thread_index = false;
    for (AtomId a : term.atoms) {
      const Atom& atom = atoms[a];
      if (atom.kind == AtomKind::ThreadIdx || (atom.kind == AtomKind::Quotient && atom.variation == Variation::Lane) ||
          atom.kind == AtomKind::BlockIdx)
        thread_index = true;
      else if (!index_like(atoms, a))
        params.push_back(a);
    }
    if (params.empty()) {
      if (thread_index) found.per_thread = true;
      else found.other = true;
      continue;
    }
    // coefficient · Π params · (indices) ≡ 0 (mod w) for every index: Π params ≡ 0 (mod w / 2^v).
    int v = two_adic_valuation(term.coefficient);
    if (v >= need) continue;
    int64_t modulus = int64_t{1} << (need - v);
    std::string product;
    for (AtomId a : params) product += (product.empty() ? "" : " * ") + atoms[a].name;
    // What the launches pass decides it: a residue the parameters' congruence fixes.
    Poly params_poly = Poly::constant(1);
    for (AtomId a : params)
      if (auto next = params_poly.times(Poly::atom(a))) params_poly = std::move(*next);
    if (auto r = congruence_of(atoms, params_poly, &facts).residue_mod(static_cast<uint64_t>(modulus));
        r && *r != 0 && found.broken_by_launch.empty()) {
      for (AtomId a : params) {
        if (auto value = launch_constant(atoms[a])) {
          found.broken_by_launch += (found.broken_by_launch.empty() ? "" : ", ") + atoms[a].name + " = " +
                                    std::to_string(*value);
        }
      }
      if (found.broken_by_launch.empty()) found.broken_by_launch = product + " % " + std::to_string(modulus) + " = " + std::to_string(*r);
    }
    auto& conditions = found.conditions;
    auto it = std::find_if(conditions.begin(), conditions.end(), [&](const auto& c) { return c.first == product; });
    if (it == conditions.end()) conditions.emplace_back(product, modulus);
    else it->second = std::max(it->second, modulus);
  }
  return found;
}

// "n % 4 == 0 and (a * b) % 2 == 0"; empty when there are no conditions.
std::string condition_text(const std::vector<std::pair<std::string, int64_t>>& conditions) {
  std::string joined;
  for (size_t i = 0; i < conditions.size(); ++i) {
    const auto& [product, modulus] = conditions[i];
    bool compound = product.find(' ') != std::string::npos;
    joined += (i ? " and " : "") + (compound ? "(" + product + ")" : product) + " % " + std::to_string(modulus) + " == 0";
  }
  return joined;
}

}  // namespace

void AccessInterpreter::Impl::record(const clang::Expr* e, const Value& address, clang::QualType type,
                                     bool store, bool atomic, Env& env, const std::string& field_of) {
  if (quiet || host_mode || !out || env.dead) return;
  if (address.kind != Value::Kind::Pointer || address.base < 0) return;
  // Held to the end: nothing below adds a base.
  const Base& base = bases[address.base];
  if (base.space == MemorySpace::Local || base.space == MemorySpace::Constant || base.space == MemorySpace::Unknown) return;
  if (!e || !view.is_user_location(e->getBeginLoc())) return;
  if (type.isNull()) return;
  clang::QualType t = type.getNonReferenceType().getUnqualifiedType();
  if (t.isNull() || t->containsErrors() || t->isArrayType() || t->isFunctionType()) return;

  MemoryAccess m = describe_access(e, base, t, store, atomic, field_of);
  Poly offset = with_known_values(address.form, env.facts);
  std::optional<int64_t> size = type_size(t);
  uint64_t align = type_align(t);
  int64_t width = access_width(t, size, align, offset, m);
  if ((base.space == MemorySpace::Global || base.space == MemorySpace::Shared) && width > 0)
    estimate_coalescing(base, offset, width, size, env, m);
  if (base.space == MemorySpace::Global && size && *size > 0) {
    note_tail(address.base, offset, *size, env, m);
    note_guarded_overrun(address.base, offset, *size, env, m);
    note_row_overrun(address.base, offset, *size, env, m);
    note_vector_tail(address.base, offset, *size, env, m);
  }
  if (!field_of.empty()) describe_element(e, address, m);
  if (base.space == MemorySpace::Shared && width > 0)
    touch_shared(m, address.base, offset, static_cast<uint32_t>(width), env);

  // Vector types, and anything reached through a cast to an 8- or 16-byte type (a cast to a
  // 4-byte float from a byte buffer is a scalar access, out of this rule's scope).
  uint64_t required = t->isRecordType() ? align : (size ? static_cast<uint64_t>(*size) : align);
  bool vector = is_vector_record(t) || (address.widened && required >= 8);
  if (vector && required > 1 && !t->isDependentType()) {
    m.vector_access = true;
    m.required_alignment = static_cast<uint32_t>(required);
    check_alignment(base, address.form, required, env, m);
  }
  out->push_back(std::move(m));
}

// A field read or written through memory (`p[i].x`, `p->y`): the element it belongs to, keyed
// by base and element address, so that the fields of one element can be seen together.
void AccessInterpreter::Impl::describe_element(const clang::Expr* e, const Value& address, MemoryAccess& m) const {
  auto* member = llvm::dyn_cast<clang::MemberExpr>(e->IgnoreParenImpCasts());
  auto* field = member ? llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl()) : nullptr;
  const clang::RecordDecl* record = field ? field->getParent() : nullptr;
  if (!record || record->isDependentContext() || !record->getDefinition() || record->isInvalidDecl() ||
      field->isBitField())
    return;
  const clang::ASTRecordLayout& layout = ctx.getASTRecordLayout(record->getDefinition());
  auto offset = static_cast<int64_t>(layout.getFieldOffset(field->getFieldIndex()) / 8);
  auto element = address.form.plus(Poly::constant(-offset));
  if (!element) return;
  m.element_key = std::to_string(address.base) + "@" + element->key();
  m.field_offset = static_cast<uint32_t>(offset);
  m.element_align = static_cast<uint32_t>(layout.getAlignment().getQuantity());
  m.element_bytes = static_cast<uint32_t>(layout.getSize().getQuantity());
}

// Where the access is and what it touches: location, function and call chain, base, type.
MemoryAccess AccessInterpreter::Impl::describe_access(const clang::Expr* e, const Base& base,
                                                      clang::QualType t, bool store, bool atomic,
                                                      const std::string& field_of) const {
  MemoryAccess m = placed_record(e->getSourceRange());
  m.is_store = store;
  m.is_atomic = atomic;
  m.space = base.space;
  m.base_name = base.name;
  m.shared_row = base.row;
  m.type_name = t.getAsString(policy);
  m.field_of = field_of;
  if (m.field_of.empty() && t->isRecordType() && !is_vector_record(t)) m.field_of = m.type_name;
  return m;
}

MemoryAccess AccessInterpreter::Impl::placed_record(clang::SourceRange where) const {
  MemoryAccess m;
  m.location = view.location_of(where);
  m.function = frames.empty() ? kernel_name : qualified_name(*frames.back().function);
  m.kernel = kernel_name;
  for (const auto& f : frames)
    if (f.call_site) m.call_chain.push_back(*f.call_site);
  // A copy or assignment the compiler wrote (`out[i] = in[i]` on a struct) has no source of its
  // own but the struct's declaration: the access is the user's expression that invoked it.
  if (!frames.empty() && frames.back().function->isImplicit() && frames.back().call_site) {
    m.location = *frames.back().call_site;
    m.call_chain.pop_back();
    if (frames.size() >= 2) m.function = qualified_name(*frames[frames.size() - 2].function);
    else m.function = kernel_name;
  }
  m.block_shape = block.describe();
  return m;
}

// Bytes per lane of the access (0 when unknown), with the element size into `m`. For a
// dependent element type the offset is counted in elements, as if each were 4 bytes.
int64_t AccessInterpreter::Impl::access_width(clang::QualType t, std::optional<int64_t> size, uint64_t align,
                                              Poly& offset, MemoryAccess& m) {
  int64_t width = 0;
  if (size) {
    width = *size;
    if (t->isRecordType()) width = std::min<int64_t>({*size, static_cast<int64_t>(std::max<uint64_t>(align, 1)), 16});
    m.element_size = static_cast<uint32_t>(*size);
  } else {
    // A dependent element type: count in elements, as if each were 4 bytes.
    Poly s = size_form(t);
    AtomId satom = s.terms().empty() || s.terms()[0].atoms.empty() ? UINT32_MAX : s.terms()[0].atoms[0];
    if (satom != UINT32_MAX) {
      if (auto elems = offset.divided_by_atom(satom)) {
        if (auto bytes = elems->scaled(4)) {
          offset = *bytes;
          width = 4;
        }
      }
    }
  }
  m.width = static_cast<uint32_t>(std::max<int64_t>(width, 0));
  return width;
}

namespace {

// An estimate whose lanes' addresses are known relative to each other.
bool judged(const WarpEstimate& w) {
  return w.pattern == LanePattern::Estimated && (!w.runtime_stride || w.lane_stride);
}

}  // namespace

// `p` with the loop variables the model could not step replaced by the values they entered their
// loops with (an inner loop's entry value may name an outer loop's variable: a few rounds).
std::optional<Poly> AccessInterpreter::Impl::at_first_iteration(const Poly& p,
                                                                std::vector<AtomId>& replaced) const {
  Poly out = p;
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (AtomId a : out.atoms()) {
      auto it = first_iteration.find(a);
      if (it == first_iteration.end()) continue;
      auto next = out.substituted(a, it->second);
      if (!next) return std::nullopt;
      out = std::move(*next);
      if (std::find(replaced.begin(), replaced.end(), a) == replaced.end()) replaced.push_back(a);
      changed = true;
    }
    if (!changed) return out;
  }
  return std::nullopt;
}

// A shared access left unjudged by a loop variable the model cannot step (`s *= 2`, `pos = (pos
// + 4) & 63`) is judged in the loop's first iteration, where the variable still holds its entry
// value: a conflict there is one the hardware pays whenever the loop runs. A geometric variable
// whose values the loop condition fixes is also tried at each of them; the worst is kept.
// `note` receives what was assumed ("in the first iteration of its loop, where `s` = 1").
void AccessInterpreter::Impl::estimate_first_iteration(const WarpQuery& q, WarpEstimate& w, std::string& note) const {
  std::vector<AtomId> replaced;
  auto offset = at_first_iteration(q.offset, replaced);
  if (!offset) return;
  WarpQuery first = q;
  first.offset = *offset;
  for (LaneGuard& g : first.guards) {
    auto form = at_first_iteration(g.form, replaced);
    if (!form) return;
    g.form = std::move(*form);
  }
  if (replaced.empty()) return;
  WarpEstimate best = estimate_warp(first);
  if (!judged(best)) return;
  std::string values;
  for (AtomId a : replaced) {
    if (!values.empty()) values += ", ";
    values += "`" + atoms[a].name + "` = " + atoms.print(first_iteration.at(a));
  }
  note = "in the first iteration of its loop, where " + values;
  // The other values of a geometric variable the loop runs through.
  for (AtomId a : replaced) {
    auto seq = sequences.find(a);
    if (seq == sequences.end() || seq->second.shift != 0) continue;
    for (int64_t value : seq->second.values) {
      WarpQuery at = q;
      auto fixed = q.offset.substituted(a, Poly::constant(value));
      std::vector<AtomId> others;
      auto rest = fixed ? at_first_iteration(*fixed, others) : std::nullopt;
      if (!rest) continue;
      at.offset = std::move(*rest);
      bool guards_ok = true;
      for (LaneGuard& g : at.guards) {
        auto form = g.form.substituted(a, Poly::constant(value));
        auto entry = form ? at_first_iteration(*form, others) : std::nullopt;
        if (!entry) guards_ok = false;
        else g.form = std::move(*entry);
      }
      if (!guards_ok) continue;
      WarpEstimate e = estimate_warp(at);
      if (!judged(e)) continue;
      if (int64_t{e.wavefronts} - e.ideal_wavefronts > int64_t{best.wavefronts} - best.ideal_wavefronts) {
        best = e;
        note = "where `" + atoms[a].name + "` = " + std::to_string(value) + " (one of the values its loop runs through)";
      }
    }
  }
  w = best;
}

// The warp estimator's verdict for a global access (sectors) or a shared one (bank wavefronts),
// with the block shape the path knows.
void AccessInterpreter::Impl::estimate_coalescing(const Base& base, const Poly& offset, int64_t width,
                                                  std::optional<int64_t> size, const Env& env,
                                                  MemoryAccess& m) const {
  WarpQuery q;
  q.atoms = &atoms;
  q.offset = offset;
  q.width = static_cast<uint32_t>(width);
  q.element_size = size ? *size : 4;
  q.block = block;
  for (int d = 0; d < 3; ++d) {
    if (block_dim[d] == UINT32_MAX) continue;
    if (auto it = env.facts.values.find(block_dim[d]); it != env.facts.values.end() && it->second > 0) {
      std::optional<uint32_t>& slot = d == 0 ? q.block.x : d == 1 ? q.block.y : q.block.z;
      slot = static_cast<uint32_t>(it->second);
    }
  }
  q.guards = env.guards;
  q.shared = base.space == MemorySpace::Shared;
  m.data_branch = env.data_branch;
  q.facts = &env.facts;
  for (int d = 0; d < 3; ++d) {
    q.thread_atoms[d] = thread[d];
    q.block_dim_atoms[d] = block_dim[d];
  }
  WarpEstimate w = estimate_warp(q);
  if (q.shared && !judged(w)) estimate_first_iteration(q, w, m.loop_values);
  m.pattern = w.pattern;
  m.lane_dimension = w.lane_dimension;
  m.lane_stride = w.lane_stride;
  m.runtime_stride = w.runtime_stride;
  m.stride_text = w.stride_text;
  m.stride_in_elements = w.stride_in_elements;
  m.sectors = w.sectors;
  m.ideal_sectors = w.ideal_sectors;
  m.sectors_if_aligned = w.sectors_if_aligned;
  m.active_lanes = w.active_lanes;
  m.wavefronts = w.wavefronts;
  m.ideal_wavefronts = w.ideal_wavefronts;
  m.loop_vector_width = w.loop_vector_width;
  m.block_shape = q.block.describe();
  m.gather_index = w.gather_index;
  m.gather_from_shared = w.gather_from_shared;
  m.window_shift = w.window_shift;
  m.row_steps = w.row_steps;
  m.rows_off_sector = w.rows_off_sector;
  m.row_excess_total = w.row_excess_total;
  m.row_index = w.row_index;
  m.row_stride_text = w.row_stride_text;
  m.row_stride = w.row_stride;
  m.row_stride_in_elements = w.row_stride_in_elements;
  m.base_sector_aligned = base.alignment >= 32;
}

void AccessInterpreter::Impl::check_alignment(const Base& base, const Poly& offset_in, uint64_t w,
                                              const Env& env, MemoryAccess& m) const {
  m.base_alignment = base.alignment;
  m.alignment_note = base.note;
  Poly offset = with_known_values(offset_in, env.facts);
  auto full = Poly::atom(base.address).plus(offset);
  if (!full) {
    m.alignment = AlignmentVerdict::Unknown;
    return;
  }
  Congruence c = congruence_of(atoms, *full, &env.facts);
  if (c.divisible_by(w)) {
    m.alignment = AlignmentVerdict::Aligned;
    return;
  }
  Congruence bc = congruence_of(atoms, Poly::atom(base.address), &env.facts);
  if (!bc.residue_mod(w)) {
    // Byte and half buffers used as vectors are the classic mistake; arrays of 4-byte elements
    // read as float4 (tiled matmuls) are placed 16-byte aligned in practice, and are left alone.
    m.alignment = base.alignment > 0 && base.alignment < 4 ? AlignmentVerdict::BaseUnderaligned : AlignmentVerdict::Unknown;
    return;
  }
  if (auto r = c.residue_mod(w)) {
    m.alignment = AlignmentVerdict::Misaligned;
    m.misaligned_by = *r;
    return;
  }
  // Which terms keep the offset from being a known multiple of w?
  AlignmentObstacles found = alignment_obstacles(atoms, offset, w, env.facts);
  // The launches in this file pass sizes that break the condition: some block or thread of them
  // faults, which is an error, not a condition.
  if (!found.broken_by_launch.empty()) {
    m.alignment = AlignmentVerdict::Misaligned;
    m.misaligned_per_thread = true;
    m.alignment_condition = condition_text(found.conditions);
    m.broken_by_launch = found.broken_by_launch;
    return;
  }
  if (found.per_thread && found.conditions.empty() && !found.other) {
    m.alignment = AlignmentVerdict::Misaligned;
    m.misaligned_per_thread = true;
    return;
  }
  m.alignment = AlignmentVerdict::Conditional;
  std::string joined = condition_text(found.conditions);
  if (joined.empty()) joined = "the byte offset `" + atoms.print(offset) + "` % " + std::to_string(w) + " == 0";
  m.alignment_condition = joined;
  m.misaligned_per_thread = found.per_thread;
}

}  // namespace kl::analyzers
