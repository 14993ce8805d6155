"""The Python that runs the tests needing real PyTorch on the CPU: this interpreter when it has
torch, else Debian's (python3-torch, which tools/install-deps.sh installs); None when neither has
it (the tests then exit 77, skipped)."""
import subprocess
import sys


def python_with_torch():
    for candidate in (sys.executable, "/usr/bin/python3"):
        try:
            if candidate and subprocess.run([candidate, "-c", "import torch"], capture_output=True).returncode == 0:
                return candidate
        except OSError:  # no such interpreter
            continue
    return None
