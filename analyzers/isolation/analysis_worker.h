#pragma once
// The child side of isolated analysis: `kernel-lsp __analysis-worker` runs this loop. It reads
// the settings, then requests (a .cu file and its text, a build.toml, forget, cancel) from the
// channel descriptor, analyses one file at a time on a thread with a large stack, and writes
// one reply per analysis. A crash here ends only this process: its supervisor
// (isolated_analyzer.h) reads the signal and the stage from the report descriptor, turns it
// into an error finding on the file, and starts a fresh worker for the next file.
//
// The worker exits when its channel closes, and is killed when its parent dies.
namespace kl::analyzers {

// The descriptors a worker is started with (see WorkerProcess).
inline constexpr int kWorkerChannelFd = 3;
inline constexpr int kWorkerReportFd = 4;

// Returns the process exit code: 0 when the channel closed, 2 on a protocol error.
int run_analysis_worker(int channel_fd, int report_fd);

}  // namespace kl::analyzers
