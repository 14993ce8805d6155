#!/usr/bin/env python3
"""The layering of kernel-lsp (docs/ARCHITECTURE.md, its layer diagram and "Invariants"), checked on the includes.

Reads every #include of the product sources (analyzers/, lsp/, cli/, support/, and guidance/,
runner/ where they exist; never tests/, bench/, kernels/, vscode-client/), builds the graph of
folders (second-level folders such as analyzers/model or lsp/server; files directly in a
top-level folder count as that folder) and reports, as `file:line: rule: what`:

  library-include-lsp      anything under analyzers/, guidance/ or runner/ (the libraries below
                           the server and the CLI) that includes lsp/ or cli/
  clang-header             a <clang/...> (or <clang-c/...>) include outside analyzers/frontend
                           and analyzers/model
  llvm-header              a <llvm/...> include outside analyzers/frontend and analyzers/model
                           (and the folders of LLVM_EXTRA_ALLOWED below)
  cli-include-lsp          cli/ including lsp/ other than the serve entry, lsp/server_main.h
  support-include-product  support/ including analyzers/, lsp/, cli/, guidance/ or runner/
  folder-cycle             an include edge between two folders that lies on a cycle of folders;
                           the message shows one such cycle with an example include per edge

Each violation has a key `rule: from -> to` (a file and the header it includes; for cycles, the
two folders of the edge). `--known FILE` lists the keys that are allowed for now, each under a
comment saying why it remains; a key in that file that no longer occurs fails the check too
("stale known violation"), so the list only shrinks. `--print-map` prints a Markdown code map.
`--self-test` checks the checker on a small fake tree.

Exit status: 0 clean (or only known violations), 1 violations or stale entries, 2 usage error.
Python 3 standard library only.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

# The folders that make up the product, relative to the repository root. Missing ones are skipped.
PRODUCT_TOPS = ("analyzers", "lsp", "cli", "support", "guidance", "runner")
SOURCE_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".inc", ".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh")

# Only these folders parse with clang and walk its AST (docs/ARCHITECTURE.md: "Only
# `analyzers/frontend` and `analyzers/model` include clang.").
CLANG_ALLOWED = ("analyzers/frontend", "analyzers/model")

# LLVM headers are allowed where clang is. docs/ARCHITECTURE.md says nothing of header-only LLVM utilities
# (llvm/ADT/..., llvm/Support/...) elsewhere, so a folder that uses one legitimately may be named
# here, with the reason, instead of being reported. Today no folder outside analyzers/frontend and
# analyzers/model includes any LLVM header (grep -rn "include <llvm" analyzers lsp cli support),
# so the list is empty. Form: {"folder": "why"}.
LLVM_EXTRA_ALLOWED = {}

# The one header of lsp/ that cli/ may include: the entry point of `kernel-lsp serve`.
CLI_LSP_ENTRY = "lsp/server_main.h"

# The libraries that know nothing of LSP (nor of the command line): both the server and the CLI
# stand on them.
NO_LSP_LIBRARIES = ("analyzers", "guidance", "runner")

# support/ knows no product folder.
SUPPORT_FORBIDDEN = ("analyzers", "lsp", "cli", "guidance", "runner")

RULES = ("library-include-lsp", "clang-header", "llvm-header", "cli-include-lsp",
         "support-include-product", "folder-cycle")

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
RAW_OPEN_RE = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


# ----------------------------------------------------------------------------------------------
# Reading the sources

def strip_comments_and_strings(lines):
    """Yields (line number, code) with comments, string and character literals blanked.

    Enough of a lexer that an `#include` inside a /* */ comment or a multi-line raw string is not
    taken for a directive. The quotes of an include's path are kept: a line that starts with `#`
    is yielded as written once it is outside a comment or raw string.
    """
    in_block = False
    raw_end = None  # the `)delim"` that ends the raw string we are in
    for number, line in enumerate(lines, 1):
        out = []
        i = 0
        n = len(line)
        if not in_block and raw_end is None and line.lstrip().startswith("#"):
            # A preprocessor line: keep it, minus any trailing comment that opens a block.
            code = line
            start = code.find("/*")
            if start >= 0 and code.find("*/", start + 2) < 0 and '"' not in code[start:]:
                in_block = True
            yield number, code
            continue
        while i < n:
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    i = n
                    break
                in_block = False
                i = end + 2
                continue
            if raw_end is not None:
                end = line.find(raw_end, i)
                if end < 0:
                    i = n
                    break
                i = end + len(raw_end)
                raw_end = None
                continue
            c = line[i]
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block = True
                i += 2
                continue
            m = RAW_OPEN_RE.match(line, i) if c in "uULR" else None
            if m and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
                raw_end = ")" + m.group(1) + '"'
                i = m.end()
                continue
            if c in "\"'":
                j = i + 1
                while j < n and line[j] != c:
                    j += 2 if line[j] == "\\" else 1
                i = j + 1
                out.append(c + c)
                continue
            out.append(c)
            i += 1
        yield number, "".join(out)


def scan_includes(path):
    """[(line, kind, target)] of one file; kind is '"' or '<'."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return []
    found = []
    for number, code in strip_comments_and_strings(lines):
        m = INCLUDE_RE.match(code)
        if m:
            found.append((number, m.group(1), m.group(2).strip()))
    return found


def product_files(root):
    """Repository-relative paths of the product's source files, sorted."""
    files = []
    for top in PRODUCT_TOPS:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in filenames:
                if name.endswith(SOURCE_SUFFIXES):
                    files.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/"))
    return sorted(files)


def folder_of(rel):
    """The graph node of a repository-relative path: `top/sub` for anything under a second-level
    folder, `top` for a file directly in a top-level folder; None outside the product."""
    parts = rel.split("/")
    if parts[0] not in PRODUCT_TOPS or len(parts) < 2:
        return None
    return parts[0] if len(parts) == 2 else parts[0] + "/" + parts[1]


def resolve(root, including, target):
    """The repository-relative path a product include names, or None for anything else (the
    standard library, third-party and system headers). Paths are written from the repository root;
    one that does not exist from there is tried relative to the including file's folder."""
    target = target.replace("\\", "/")
    if os.path.isfile(os.path.join(root, target)):
        return os.path.normpath(target).replace(os.sep, "/")
    near = os.path.normpath(os.path.join(os.path.dirname(including), target)).replace(os.sep, "/")
    if not near.startswith("../") and os.path.isfile(os.path.join(root, near)):
        return near
    if target.split("/")[0] in PRODUCT_TOPS:
        return os.path.normpath(target).replace(os.sep, "/")  # generated, or not written yet
    return None


class Include:
    __slots__ = ("file", "line", "text", "target", "system")

    def __init__(self, file, line, text, target, system):
        self.file, self.line, self.text, self.target, self.system = file, line, text, target, system

    def where(self):
        return "%s:%d" % (self.file, self.line)


def read_tree(root):
    """(files, includes): the product files, and every include of them that matters here: product
    headers (target set) and clang/LLVM headers (system set)."""
    files = product_files(root)
    includes = []
    for rel in files:
        for line, kind, written in scan_includes(os.path.join(root, rel)):
            text = "#include %s%s%s" % (kind, written, ">" if kind == "<" else '"')
            first = written.split("/")[0]
            if kind == "<" and first in ("clang", "clang-c", "llvm", "llvm-c"):
                includes.append(Include(rel, line, text, None, first))
                continue
            if kind == '"' or first in PRODUCT_TOPS:
                target = resolve(root, rel, written)
                if target is not None and folder_of(target) is not None:
                    includes.append(Include(rel, line, text, target, None))
    return files, includes


# ----------------------------------------------------------------------------------------------
# The rules

class Violation:
    def __init__(self, rule, source, target, include, what, details=()):
        self.rule, self.source, self.target = rule, source, target
        self.include, self.what, self.details = include, what, list(details)

    def key(self):
        return "%s: %s -> %s" % (self.rule, self.source, self.target)

    def render(self):
        text = "%s: %s: %s -> %s: %s" % (self.include.where(), self.rule, self.source, self.target,
                                         self.what)
        return "\n".join([text] + ["    " + d for d in self.details])


def under(path, folder):
    return path == folder or path.startswith(folder + "/")


def file_rules(includes):
    found = []
    for inc in includes:
        src = inc.file
        if inc.system:
            header = inc.text.split("<", 1)[1].rstrip(">")
            if inc.system.startswith("clang"):
                if not any(under(src, f) for f in CLANG_ALLOWED):
                    found.append(Violation("clang-header", src, header, inc,
                                           "only analyzers/frontend and analyzers/model include clang"))
            else:
                allowed = CLANG_ALLOWED + tuple(LLVM_EXTRA_ALLOWED)
                if not any(under(src, f) for f in allowed):
                    found.append(Violation("llvm-header", src, header, inc,
                                           "LLVM headers belong with clang in analyzers/frontend "
                                           "and analyzers/model"))
            continue
        tgt = inc.target
        library = next((f for f in NO_LSP_LIBRARIES if under(src, f)), None)
        if library and (under(tgt, "lsp") or under(tgt, "cli")):
            found.append(Violation("library-include-lsp", src, tgt, inc,
                                   "%s/ knows nothing of LSP or the command line" % library))
        if under(src, "cli") and under(tgt, "lsp") and tgt != CLI_LSP_ENTRY:
            found.append(Violation("cli-include-lsp", src, tgt, inc,
                                   "cli/ reaches lsp/ only to start `serve` (%s)" % CLI_LSP_ENTRY))
        if under(src, "support") and any(under(tgt, f) for f in SUPPORT_FORBIDDEN):
            found.append(Violation("support-include-product", src, tgt, inc,
                                   "support/ has no product knowledge"))
    return found


def folder_graph(includes):
    """{from: {to: [Include, ...]}} between distinct folders."""
    graph = collections.defaultdict(dict)
    for inc in includes:
        if inc.target is None:
            continue
        a, b = folder_of(inc.file), folder_of(inc.target)
        if a and b and a != b:
            graph[a].setdefault(b, []).append(inc)
    for edges in graph.values():
        for incs in edges.values():
            incs.sort(key=lambda i: (i.file, i.line))
    return graph


def strongly_connected(graph):
    """Tarjan's algorithm, iterative; returns the components as sets."""
    nodes = sorted(set(graph) | {b for edges in graph.values() for b in edges})
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = [0]
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.add(member)
                    if member == node:
                        break
                comps.append(comp)
    return comps


def shortest_path(graph, start, goal, within):
    """Nodes of a shortest path start → goal that stays inside `within` (BFS, sorted neighbours)."""
    previous = {start: None}
    queue = collections.deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            path = []
            while node is not None:
                path.append(node)
                node = previous[node]
            return path[::-1]
        for nxt in sorted(graph.get(node, {})):
            if nxt in within and nxt not in previous:
                previous[nxt] = node
                queue.append(nxt)
    return None


def cycle_rules(graph):
    """One violation per edge that lies on a cycle of folders (every edge inside a strongly
    connected component does), showing the shortest cycle through it."""
    found = []
    for comp in strongly_connected(graph):
        if len(comp) < 2:
            continue
        for a in sorted(comp):
            for b in sorted(graph.get(a, {})):
                if b not in comp:
                    continue
                back = shortest_path(graph, b, a, comp)
                cycle = [a] + back
                details = []
                for x, y in zip(cycle, cycle[1:]):
                    ex = graph[x][y][0]
                    more = len(graph[x][y]) - 1
                    details.append("%s -> %s: %s %s%s" % (x, y, ex.where(), ex.text,
                                                          " (and %d more)" % more if more else ""))
                found.append(Violation("folder-cycle", a, b, graph[a][b][0],
                                       "closes the cycle " + " -> ".join(cycle), details))
    return found


def check(root):
    files, includes = read_tree(root)
    violations = file_rules(includes) + cycle_rules(folder_graph(includes))
    unique = {}
    for v in violations:
        unique.setdefault(v.key(), v)  # the first include of a file → header pair stands for all
    return sorted(unique.values(), key=lambda v: (v.include.file, v.include.line, v.rule, v.target))


# ----------------------------------------------------------------------------------------------
# The known list

class KnownListError(Exception):
    pass


def read_known(path):
    """{key: line number}. Entries are `rule: from -> to`; `#` starts a comment. Entries come in
    groups separated by blank lines, and every group says why in a comment above its entries."""
    known = {}
    has_reason = False
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line:
                has_reason = False
                continue
            if line.startswith("#"):
                has_reason = True
                continue
            line = line.split(" #", 1)[0].strip()
            m = re.match(r"^([a-z-]+):\s*(\S+)\s*->\s*(\S+)$", line)
            if not m or m.group(1) not in RULES:
                raise KnownListError("%s:%d: not `rule: from -> to` with a known rule: %s"
                                     % (path, number, line))
            if not has_reason:
                raise KnownListError("%s:%d: known violation without a comment above it saying why "
                                     "it remains: %s" % (path, number, line))
            key = "%s: %s -> %s" % m.groups()
            if key in known:
                raise KnownListError("%s:%d: listed twice (first on line %d): %s"
                                     % (path, number, known[key], key))
            known[key] = number
    return known


# ----------------------------------------------------------------------------------------------
# The code map

def count_lines(path):
    try:
        with open(path, "rb") as f:
            return f.read().count(b"\n")
    except OSError:
        return 0


def print_map(root, out=sys.stdout):
    """A Markdown table: each product top-level folder (whole subtree), the files directly in it,
    and each of its second-level folders, with files, lines and the folders it includes."""
    _, includes = read_tree(root)
    edges = collections.defaultdict(collections.Counter)   # node → Counter(node)
    top_edges = collections.defaultdict(collections.Counter)
    for inc in includes:
        if inc.target is None:
            continue
        a, b = folder_of(inc.file), folder_of(inc.target)
        if a != b:
            edges[a][b] += 1
        ta, tb = a.split("/")[0], b.split("/")[0]
        if ta != tb:
            top_edges[ta][tb] += 1
    stats = collections.defaultdict(lambda: [0, 0])
    for top in PRODUCT_TOPS:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            for name in filenames:
                rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
                lines = count_lines(os.path.join(root, rel))
                for node in {top, folder_of(rel) + ("" if "/" in folder_of(rel) else "/*")}:
                    stats[node][0] += 1
                    stats[node][1] += lines

    def fmt(counter):
        return ", ".join("%s (%d)" % (k, v) for k, v in sorted(counter.items())) or "—"

    out.write("Product folders: files, lines (all files) and the folders their "
              "`#include`s reach (number of include lines). `top/*` is the files directly in `top/`.\n\n")
    out.write("| folder | files | lines | includes |\n|---|---:|---:|---|\n")
    for top in PRODUCT_TOPS:
        if top not in stats:
            continue
        out.write("| **%s/** | %d | %d | %s |\n" % (top, stats[top][0], stats[top][1], fmt(top_edges[top])))
        subs = sorted(n for n in stats if n.startswith(top + "/"))
        if subs == [top + "/*"]:
            continue  # a flat folder: its row above says it all
        for node in subs:
            graph_node = top if node.endswith("/*") else node
            out.write("| %s | %d | %d | %s |\n" % (node, stats[node][0], stats[node][1],
                                                  fmt(edges[graph_node])))


# ----------------------------------------------------------------------------------------------
# Self-test: a fake tree with one violation of each kind

SELF_TEST_TREE = {
    # allowed: clang in the frontend, the serve entry from cli, support from everywhere
    "analyzers/frontend/parser.cpp": '#include <clang/Frontend/CompilerInstance.h>\n'
                                     '#include <llvm/Support/raw_ostream.h>\n#include "support/util.h"\n',
    "analyzers/finding.h": "// plain data\n#include <string>\n",
    "cli/main.cpp": '#include "lsp/server_main.h"\n#include "analyzers/finding.h"\n'
                    '#include "lsp/workspace/store.h"\n',             # 3: cli-include-lsp
    "lsp/server_main.h": "",
    "lsp/workspace/store.h": '#include "analyzers/finding.h"\n',
    # 1: analyzers include lsp
    "analyzers/rules/rule.cpp": '#include "analyzers/finding.h"\n#include "lsp/workspace/store.h"\n',
    # 2: clang and llvm outside frontend/model (and ones that must not count)
    "lsp/server/handlers.cpp": '#include "lsp/features/hover.h"\n'
                               '// #include <clang/AST/Decl.h> in a comment\n'
                               '/* #include <clang/AST/Expr.h>\n   #include <clang/Basic/X.h> */\n'
                               'const char* s = R"(\n#include <clang/Lex/Lexer.h>\n)";\n'
                               '#include <clang/AST/ASTContext.h>\n'
                               '#include "local.h"\n',                # resolved next to the file
    "lsp/server/local.h": '#include <llvm/ADT/StringRef.h>\n',
    # 5: a cycle lsp/features -> lsp/server -> lsp/features
    "lsp/features/hover.h": '#include "lsp/server/local.h"\n',
    # 1b: the runner includes the CLI
    "runner/build.cpp": '#include "cli/report.h"\n#include "analyzers/finding.h"\n',
    "cli/report.h": "",
    # 4: support includes the product
    "support/util.h": "#include <string>\n",
    "support/util.cpp": '#include "support/util.h"\n#include "analyzers/finding.h"\n',
    # not product: never read
    "tests/unit/t.cpp": '#include "lsp/server/local.h"\n#include <clang/AST/Decl.h>\n',
}

SELF_TEST_EXPECTED = {
    "library-include-lsp: analyzers/rules/rule.cpp -> lsp/workspace/store.h",
    "library-include-lsp: runner/build.cpp -> cli/report.h",
    "clang-header: lsp/server/handlers.cpp -> clang/AST/ASTContext.h",
    "llvm-header: lsp/server/local.h -> llvm/ADT/StringRef.h",
    "cli-include-lsp: cli/main.cpp -> lsp/workspace/store.h",
    "support-include-product: support/util.cpp -> analyzers/finding.h",
    "folder-cycle: lsp/features -> lsp/server",
    "folder-cycle: lsp/server -> lsp/features",
}


def self_test():
    failures = []

    def expect(cond, what):
        print(("ok    " if cond else "FAIL  ") + what)
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="layering-self-test-") as tmp:
        for rel, text in SELF_TEST_TREE.items():
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        got = {v.key() for v in check(tmp)}
        for key in sorted(SELF_TEST_EXPECTED):
            expect(key in got, "reported: " + key)
        for key in sorted(got - SELF_TEST_EXPECTED):
            expect(False, "not expected: " + key)
        rules_seen = {k.split(":")[0] for k in got}
        expect(set(RULES) <= rules_seen, "every rule fires once in the fake tree")
        cycle = [v for v in check(tmp) if v.rule == "folder-cycle"][0]
        expect(len(cycle.details) == 2 and "lsp/features/hover.h:1" in "\n".join(cycle.details)
               and "lsp/server/handlers.cpp:1" in "\n".join(cycle.details),
               "the cycle prints each edge with an example include")

        me = [sys.executable, os.path.abspath(__file__)]

        def run(*args):
            p = subprocess.run(me + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            return p.returncode, p.stdout

        rc, out = run(tmp)
        expect(rc == 1 and "handlers.cpp:8: clang-header:" in out, "violations exit 1, as file:line: rule")

        known = os.path.join(tmp, "known.txt")
        with open(known, "w") as f:
            f.write("# every violation of the fake tree is known\n" + "\n".join(sorted(got)) + "\n")
        rc, out = run("--known", known, tmp)
        expect(rc == 0, "all known: exit 0")

        with open(known, "a") as f:
            f.write("# gone\ncli-include-lsp: cli/main.cpp -> lsp/workspace/gone.h\n")
        rc, out = run("--known", known, tmp)
        expect(rc == 1 and "stale known violation: cli-include-lsp: cli/main.cpp -> lsp/workspace/gone.h"
               in out, "a known entry that no longer occurs fails as stale")

        with open(known, "w") as f:
            f.write("# all but the support one\n" + "\n".join(
                sorted(k for k in got if not k.startswith("support"))) + "\n")
        rc, out = run("--known", known, tmp)
        expect(rc == 1 and "support/util.cpp:2: support-include-product:" in out
               and "clang-header" not in out, "a new violation fails; known ones stay quiet")

        with open(known, "w") as f:
            f.write("\n".join(sorted(got)) + "\n")
        rc, out = run("--known", known, tmp)
        expect(rc == 2 and "without a comment" in out, "an entry without a reason is refused")

        rc, out = run("--print-map", tmp)
        expect(rc == 0 and "| lsp/server | 2 |" in out and "lsp/features (1)" in out,
               "--print-map prints the folders with their includes")

    print("self-test: %s" % ("FAILED (%d)" % len(failures) if failures else "all checks passed"))
    return 1 if failures else 0


# ----------------------------------------------------------------------------------------------

def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", help="repository root (default: the one holding this script)")
    parser.add_argument("--root", dest="root_opt", help="same as the positional root")
    parser.add_argument("--known", help="allow-list of existing violations (`rule: from -> to` lines)")
    parser.add_argument("--print-map", action="store_true", help="print a Markdown code map and exit")
    parser.add_argument("--self-test", action="store_true", help="check the checker on a fake tree")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    root = args.root_opt or args.root or os.path.normpath(os.path.join(here, "..", ".."))
    if not any(os.path.isdir(os.path.join(root, t)) for t in PRODUCT_TOPS):
        print("check_layering: %s holds none of %s" % (root, ", ".join(PRODUCT_TOPS)), file=sys.stderr)
        return 2
    if args.print_map:
        print_map(root)
        return 0

    known = {}
    if args.known:
        try:
            known = read_known(args.known)
        except (OSError, KnownListError) as e:
            print("check_layering: %s" % e)
            return 2

    violations = check(root)
    new = [v for v in violations if v.key() not in known]
    present = {v.key() for v in violations}
    stale = sorted((line, key) for key, line in known.items() if key not in present)
    for v in new:
        print(v.render())
    for line, key in stale:
        print("%s:%d: stale known violation: %s (it no longer occurs: delete the entry)"
              % (args.known, line, key))
    files = len(product_files(root))
    summary = "check_layering: %d files, %d violations (%d known, %d new), %d stale known entries" % (
        files, len(violations), len(violations) - len(new), len(new), len(stale))
    print(summary)
    return 1 if new or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
