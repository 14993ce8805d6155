"""Background CPU load for lsp_bench.py --load N: N busy processes for the length of a measurement.

Users run language servers beside builds, tests and browsers; on a 2-core machine with a few
busy processes a server's wall times grow with every thread it keeps waiting, which an idle
benchmark machine never shows. Each busy process is a Python spin loop (pure user-mode CPU,
no I/O or memory traffic that would disturb the servers other than by taking a core), started
at normal priority and ended, by its own id, when the measurement is over.

Standard library only.
"""
import os
import signal
import subprocess
import sys
import time

SPIN = "while True:\n    pass\n"


class CpuLoad:
    """A context manager that keeps `count` busy processes running while it is entered."""

    def __init__(self, count):
        self.count = max(0, int(count))
        self.processes = []
        self.started_at = None
        self.load_average_at_start = None

    def __enter__(self):
        self.load_average_at_start = os.getloadavg()
        for _ in range(self.count):
            self.processes.append(subprocess.Popen([sys.executable, "-c", SPIN], stdin=subprocess.DEVNULL,
                                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self.started_at = time.monotonic()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def stop(self):
        for proc in self.processes:
            if proc.poll() is None:
                try:
                    os.kill(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
            proc.wait()
        self.processes = []

    def record(self):
        """What the JSON keeps: how many busy processes, for how long, and the load averages seen."""
        return {"busy_processes": self.count,
                "busy_process_command": [os.path.basename(sys.executable), "-c", SPIN.strip()] if self.count else None,
                "seconds": round(time.monotonic() - self.started_at, 1) if self.started_at else 0.0,
                "load_average_at_start": self.load_average_at_start,
                "load_average_at_end": os.getloadavg()}
