#!/usr/bin/env python3
"""Size limits of the product sources: no file over FILE_LIMIT lines, no function over
FUNCTION_LIMIT lines (outside data tables).

Reads the C++ of the product folders (analyzers/, lsp/, cli/, support/, guidance/, runner/; never
tests/, bench/, kernels/) as text. A function is a brace block opened after a parenthesised
parameter list (a definition: `name(...) const {`, a constructor with an initializer list, a
lambda), not after if/for/while/switch/catch, and not nested in another function (a lambda
counts as part of the function that holds it). Its length runs from the line of its name to its
closing brace. Comments, string and character literals are blanked first, so braces in them do
not count.

A data table is not a function: brace initialisers (`= {`, `T x{`, `return {`) open no
function, so a long table of facts never counts.

Prints `file:line: what` per violation; exit 0 clean, 1 violations. `--list N` prints the N
longest functions instead. `--self-test` checks the reader on small samples. Python 3 standard
library only.
"""

import argparse
import os
import re
import sys

PRODUCT_TOPS = ("analyzers", "lsp", "cli", "support", "guidance", "runner")
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".inc")
FILE_LIMIT = 800
FUNCTION_LIMIT = 80

CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof",
           "noexcept", "static_assert", "requires", "__attribute__", "alignas"}


def blank_comments_and_strings(text):
    """The text with comments, string and character literals replaced by spaces (newlines
    kept), so that line numbers stay and braces inside them vanish."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


QUALIFIERS = {"const", "noexcept", "override", "final", "mutable", "try", "volatile"}


def opens_function(before):
    """(name, offset of the name in `before`) when a `{` preceded by `before` (the text of the
    statement so far) opens a function body, else None."""
    head = before.rstrip()
    if not head:
        return None
    last_word = re.search(r"([\w>]+)$", head)
    if last_word and last_word.group(1) not in QUALIFIERS and "->" not in head[head.rfind(")") + 1:]:
        return None  # `T x{`, `b_{` in an initializer list, `Type{`: a brace initialiser
    first_open = head.find("(")
    if first_open < 0:
        return None
    name_part = head[:first_open].rstrip()
    m = re.search(r"(operator\s*[^\s\w(]+|[A-Za-z_~][\w]*|\])\s*$", name_part)
    if not m:
        return None
    name = m.group(1)
    if name in CONTROL or re.search(r"\breturn\b", name_part):
        return None
    if not name.startswith("operator") and name_part[:m.start()].rstrip().endswith("="):
        if name != "]":
            return None  # `x = f(...) {` is no definition
    if re.search(r"\b(class|struct|union|enum|namespace)\b", name_part):
        return None
    return name, m.start()


def functions(text):
    """[(name, first_line, last_line)] of the outermost function bodies in `text`."""
    code = blank_comments_and_strings(text)
    # Preprocessor lines are not code for this purpose.
    code = re.sub(r"(?m)^[ \t]*#.*(\\\n.*)*$", lambda mm: re.sub(r"[^\n]", " ", mm.group(0)), code)
    offsets = [0] + [k + 1 for k, ch in enumerate(code) if ch == "\n"]

    def line_of(pos):
        lo, hi = 0, len(offsets) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if offsets[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    found = []
    stack = []  # (kind, name, start_line, segment start to restore)
    segment_start = 0
    in_function = 0
    for pos, ch in enumerate(code):
        if ch == "{":
            before = code[segment_start:pos]
            opened = None if in_function else opens_function(before)
            if opened:
                stack.append(("function", opened[0], line_of(segment_start + opened[1]), 0))
                in_function += 1
                segment_start = pos + 1
            elif re.search(r"[\w>]$", before.rstrip()) and not re.search(
                    r"\b(class|struct|union|enum|namespace|else|do|try)\b[^;]*$", before):
                # A brace initialiser is part of the statement around it: keep its head.
                stack.append(("init", None, 0, segment_start))
            else:
                stack.append(("block", None, 0, 0))
                segment_start = pos + 1
        elif ch == "}":
            if stack:
                kind, name, start_line, saved = stack.pop()
                if kind == "function":
                    in_function -= 1
                    found.append((name, start_line, line_of(pos)))
                if kind == "init":
                    segment_start = saved
                    continue
            segment_start = pos + 1
        elif ch == ";":
            segment_start = pos + 1
    return found


def product_files(root):
    for top in PRODUCT_TOPS:
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d != "shims")
            for f in sorted(filenames):
                if f.endswith(SOURCE_SUFFIXES):
                    path = os.path.join(dirpath, f)
                    yield os.path.relpath(path, root)


def check(root, file_limit=FILE_LIMIT, function_limit=FUNCTION_LIMIT):
    problems, lengths = [], []
    for rel in product_files(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > file_limit:
            problems.append("%s:1: file of %d lines (limit %d): split it by job" % (rel, lines, file_limit))
        for name, first, last in functions(text):
            length = last - first + 1
            lengths.append((length, rel, first, name))
            if length > function_limit:
                problems.append("%s:%d: function `%s` of %d lines (limit %d): give its stages names"
                                % (rel, first, name, length, function_limit))
    return problems, lengths


SELF_TEST = [
    ("int f(int a) {\n  if (a) {\n    return 1;\n  }\n  return 0;\n}\n", [("f", 1, 6)]),
    ("struct S {\n  S() : a_(1), b_{2} {\n  }\n  int a_, b_;\n};\n", [("S", 2, 3)]),
    ("const int table[] = {\n  1,\n  2,\n};\nvoid g() const {}\n", [("g", 5, 5)]),
    ("void h() {\n  auto l = [](int x) {\n    return x;\n  };\n  // } not a brace\n  const char* s = \"{\";\n}\n",
     [("h", 1, 7)]),
    ("namespace kl {\nclass C {\n public:\n  int m() const noexcept { return 1; }\n};\n}\n", [("m", 4, 4)]),
    ("std::vector<int> v{1, 2};\nauto x = std::string{\"a\"};\nbool operator==(const A&, const A&) {\n  return true;\n}\n",
     [("==", 3, 5)]),
]


def self_test():
    failures = 0
    for text, expected in SELF_TEST:
        got = [(n.replace("operator", "").strip(), a, b) for n, a, b in functions(text)]
        ok = got == expected
        print(("ok    " if ok else "FAIL  ") + repr(text[:40]) + (" -> %r" % got if not ok else ""))
        failures += not ok
    print("self-test: " + ("all checks passed" if not failures else "%d failed" % failures))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?", default=os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    parser.add_argument("--list", type=int, metavar="N", help="print the N longest functions")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    problems, lengths = check(args.root)
    if args.list:
        for length, rel, first, name in sorted(lengths, reverse=True)[:args.list]:
            print("%4d  %s:%d  %s" % (length, rel, first, name))
        return 0
    for p in problems:
        print(p)
    print("check_sizes: %d functions read, %d over %d lines, files over %d lines: %d"
          % (len(lengths), sum(1 for p in problems if "function" in p), FUNCTION_LIMIT, FILE_LIMIT,
             sum(1 for p in problems if "file of" in p)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
