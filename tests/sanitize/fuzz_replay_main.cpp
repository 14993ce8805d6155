// Replays fuzz inputs through a libFuzzer harness without libFuzzer: each argument is a file, or
// a folder whose regular files (recursively, in name order for stable logs) are fed one at a
// time to LLVMFuzzerTestOneInput. The harness signals a finding by crashing or trapping, which
// the sanitizers report; this program only fails by itself when it is given nothing to replay,
// so that a moved corpus cannot turn the test into a silent pass.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs_under(const fs::path& root) {
  std::vector<fs::path> files;
  if (fs::is_regular_file(root)) {
    files.push_back(root);
  } else if (fs::is_directory(root)) {
    for (const auto& entry : fs::recursive_directory_iterator(root))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
  }
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    for (const fs::path& file : inputs_under(argv[i])) {
      std::ifstream in(file, std::ios::binary);
      // A heap copy of exactly the input's size, as libFuzzer passes it, so that ASan sees
      // a read past the end of the input.
      std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      std::unique_ptr<uint8_t[]> data(new uint8_t[bytes.size()]);
      std::copy(bytes.begin(), bytes.end(), data.get());
      std::printf("replay %s (%zu bytes)\n", file.c_str(), bytes.size());
      std::fflush(stdout);  // name the input before a crash report, not after
      LLVMFuzzerTestOneInput(data.get(), bytes.size());
      ++replayed;
    }
  }
  if (replayed == 0) {
    std::fprintf(stderr, "lsp fuzz replay: no inputs found under the given paths\n");
    return 1;
  }
  std::printf("replayed %zu inputs\n", replayed);
  return 0;
}
