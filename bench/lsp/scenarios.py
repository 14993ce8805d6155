"""The files lsp_bench.py --scenarios benchmarks, each written into a fresh folder.

A scenario is a project folder both servers start in, the file they open, where the
one-character edit goes, and the folder with clangd's compile_commands.json (kept outside the
project: kernel-lsp reads a compile_commands.json it finds beside or above a file).

  generated                 make_kernel.py's 1,000-line file; build.toml lists one capability
                            (--arch, 7.5), clangd parses for the same arch; --files such files
                            for the memory measurement.
  llmc-attention-backward   llm.c's dev/cuda/attention_backward.cu and its local includes
                            (common.h); no build.toml or other arch declaration, so kernel-lsp
                            serves one assumed arch (the newest, 12.1); clangd parses sm_90.
  llmc-default-capabilities the same files with a build.toml that names the file but no
                            cuda-capabilities: kernel-builder's default capabilities (ten with
                            CUDA 13, two configurations); clangd parses sm_90.
  build-toml-5-archs        make_arch_kernel.py's file, build.toml of five capabilities
                            (7.5, 8.0, 8.9, 9.0, 10.0) and __CUDA_ARCH__ tiers; clangd sm_90.
"""
import json
import os
import re
import shutil
from dataclasses import dataclass, field

import device_command
import make_arch_kernel
import make_kernel

NAMES = ["generated", "llmc-attention-backward", "llmc-default-capabilities", "build-toml-5-archs"]
LLMC_FILE = os.path.join("dev", "cuda", "attention_backward.cu")
FIVE_ARCHS = ["7.5", "8.0", "8.9", "9.0", "10.0"]


class ScenarioUnavailable(RuntimeError):
    """A scenario's input is missing (e.g. the llm.c checkout)."""


@dataclass
class EditSite:
    """One character of the file that the edits toggle: replacement on odd edits, original back on even."""
    line: int
    character: int  # UTF-16 code units, LSP's default position encoding
    original: str
    replacement: str
    context: str    # the source line, for the report

    def text_for(self, edit_index):
        return self.replacement if edit_index % 2 == 0 else self.original


@dataclass
class Scenario:
    name: str
    project: str
    file: str
    edit: EditSite
    clangd_db: str
    clangd_arch: str
    kernel_lsp_archs: str  # what kernel-lsp serves, in words
    memory_files: list = field(default_factory=list)


def site_at(text, offset, replacement):
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    prefix = text[line_start:offset]
    return EditSite(line=text.count("\n", 0, offset), character=len(prefix.encode("utf-16-le")) // 2,
                    original=text[offset], replacement=replacement,
                    context=text[line_start:line_end if line_end >= 0 else len(text)].strip())


def code_only(text):
    """`text` with comments, string and character literals and preprocessor lines blanked (same offsets)."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    pattern = r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*'
    return re.sub(pattern, blank, text, flags=re.S | re.M)


def kernel_digit_site(text):
    """A one-digit decimal literal in the body of the first __global__ function that has one."""
    code = code_only(text)
    for kernel in re.finditer(r"\b__global__\b", code):
        body = code.find("{", kernel.end())
        depth, end = 0, body
        while end < len(code):
            depth += {"{": 1, "}": -1}.get(code[end], 0)
            if depth == 0:
                break
            end += 1
        digit = re.compile(r"(?<![\w.])[0-9](?![\w.'])").search(code, body, end)
        if digit:
            original = digit.group(0)
            return site_at(text, digit.start(), "2" if original == "1" else "1")
    raise ScenarioUnavailable("no one-digit literal in a __global__ function body")


def write_build_toml(folder, names, archs):
    """build.toml of one kernel; archs None leaves cuda-capabilities out (the builder's defaults)."""
    capabilities = f'cuda-capabilities = {json.dumps(archs)}\n' if archs is not None else ""
    with open(os.path.join(folder, "build.toml"), "w") as f:
        f.write('[general]\nname = "bench"\nversion = 1\nedition = 5\nlicense = "apache-2.0"\n'
                'backends = ["cuda"]\n\n[torch]\nsrc = ["torch-ext/torch_binding.cpp"]\n\n'
                '[kernel.bench]\nbackend = "cuda"\ndepends = ["torch"]\n'
                f'src = {json.dumps(names)}\n{capabilities}')


def generated(root, args):
    project = os.path.join(root, "generated")
    os.makedirs(project)
    names = []
    for variant in range(max(1, args.files)):
        names.append(f"kernel_{variant:02d}.cu")
        with open(os.path.join(project, names[-1]), "w") as f:
            f.write(make_kernel.kernel_text(variant))
    write_build_toml(project, names, [args.arch])
    paths = [os.path.join(project, n) for n in names]
    text = open(paths[0]).read()
    # The legacy mode's edit: "+ 0.0f" ↔ "+ 1.0f" in the first staged_copy kernel.
    anchor = text.index("tile[threadIdx.x] + 0.0f") + len("tile[threadIdx.x] + ")
    sm = "sm_" + args.arch.replace(".", "")
    return Scenario("generated", project, paths[0], site_at(text, anchor, "1"), os.path.join(root, "clangd-db", "generated"),
                    sm, f'build.toml: ["{args.arch}"]', memory_files=paths)


def local_includes(path, found):
    """`path` and the quoted includes it reaches in its own folder, recursively."""
    found.add(path)
    for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', open(path, errors="replace").read(), re.M):
        candidate = os.path.normpath(os.path.join(os.path.dirname(path), name))
        if os.path.isfile(candidate) and candidate not in found:
            local_includes(candidate, found)
    return found


def copy_llmc(root, args, name):
    """llm.c's attention_backward.cu and its local includes in a folder `name`; the file's path."""
    source = os.path.join(args.llmc, LLMC_FILE)
    if not os.path.isfile(source):
        raise ScenarioUnavailable(f"{source} not found (--llmc points at an llm.c checkout)")
    project = os.path.join(root, name)
    base = os.path.dirname(source)
    for path in sorted(local_includes(source, set())):
        target = os.path.join(project, os.path.relpath(path, base))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(path, target)
    return project, os.path.join(project, os.path.basename(source))


def llmc_attention_backward(root, args):
    project, file = copy_llmc(root, args, "llmc-attention-backward")
    return Scenario("llmc-attention-backward", project, file, kernel_digit_site(open(file).read()),
                    os.path.join(root, "clangd-db", "llmc-attention-backward"), "sm_90",
                    "no build.toml or arch declaration: one assumed arch")


def llmc_default_capabilities(root, args):
    project, file = copy_llmc(root, args, "llmc-default-capabilities")
    write_build_toml(project, [os.path.basename(file)], None)
    return Scenario("llmc-default-capabilities", project, file, kernel_digit_site(open(file).read()),
                    os.path.join(root, "clangd-db", "llmc-default-capabilities"), "sm_90",
                    "build.toml without cuda-capabilities: kernel-builder's default capabilities")


def build_toml_5_archs(root, args):
    project = os.path.join(root, "build-toml-5-archs")
    os.makedirs(project)
    file = os.path.join(project, "tiered.cu")
    text = make_arch_kernel.kernel_text(0, 600)
    with open(file, "w") as f:
        f.write(text)
    write_build_toml(project, ["tiered.cu"], FIVE_ARCHS)
    return Scenario("build-toml-5-archs", project, file, kernel_digit_site(text),
                    os.path.join(root, "clangd-db", "build-toml-5-archs"), "sm_90",
                    "build.toml: " + json.dumps(FIVE_ARCHS))


BUILDERS = {"generated": generated, "llmc-attention-backward": llmc_attention_backward,
            "llmc-default-capabilities": llmc_default_capabilities, "build-toml-5-archs": build_toml_5_archs}


def project_files_above(folder):
    """build.toml or compile_commands.json in a folder above `folder`, which both servers would read."""
    found, parent = [], os.path.dirname(folder)
    while True:
        for name in ("build.toml", "compile_commands.json", os.path.join("build", "compile_commands.json")):
            if os.path.exists(os.path.join(parent, name)):
                found.append(os.path.join(parent, name))
        if parent == os.path.dirname(parent):
            return found
        parent = os.path.dirname(parent)


def build(name, root, args):
    """Writes scenario `name` under `root`, with clangd's compile_commands.json beside it."""
    scenario = BUILDERS[name](root, args)
    above = project_files_above(scenario.project)
    if above:
        raise ScenarioUnavailable(f"{', '.join(above)} would be read by the servers; use another --workdir")
    sources = scenario.memory_files or [scenario.file]
    device_command.write_compile_commands(scenario.clangd_db, sources,
                                          device_command.device_flags(os.path.realpath(args.cuda_path),
                                                                      scenario.clangd_arch))
    return scenario
