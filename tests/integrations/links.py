"""What a link in kernel-lsp's output may be (guidance/guidance_links.h), checked without a network:

- a file: URI of a page that exists (the installed guidance pages, the default);
- with a documentation base configured: the base, '/', and the path of a page that exists in
  the skill's folder (skills/cuda-kernels/...) — or the base as a template with that page or
  the rule id in place of {page} / {id};
"""

import urllib.parse
from pathlib import Path

def file_uri_path(uri):
    if not uri.startswith("file:///"):
        return None
    return Path(urllib.parse.unquote(urllib.parse.urlparse(uri).path))


def link_problem(link, code, skill_folder, base=None):
    """None when `link` (of a finding with rule id `code`) resolves; else what is wrong."""
    if base is None:
        path = file_uri_path(link)
        if path is None:
            return f"{link} is not a file: URI"
        if not path.is_file():
            return f"{link} names {path}, which does not exist"
        if "/skills/cuda-kernels/" not in path.as_posix():
            return f"{link} is not a page of the cuda-kernels skill"
        return None
    prefix = base.rstrip("/") + "/"
    if not link.startswith(prefix):
        return f"{link} does not start with the configured base {prefix}"
    page = link[len(prefix):]
    if not (Path(skill_folder) / page).is_file():
        return f"{link}: {page} is not a page of {skill_folder}"
    return None
