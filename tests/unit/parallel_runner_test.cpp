// The runner that parses a file's other configurations side by side: every index exactly once,
// several callers at once, the caller always taking part, errors handed back to the caller.
#include <catch2/catch.hpp>

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "support/parallel_runner.h"

using kl::ParallelRunner;

TEST_CASE("every index runs exactly once") {
  ParallelRunner runner(1);
  std::vector<std::atomic<int>> runs(64);
  runner.run(runs.size(), [&](size_t i) { ++runs[i]; });
  for (auto& count : runs) CHECK(count == 1);
}

TEST_CASE("two pieces run at the same time when a helper is free, one of them on the caller") {
  ParallelRunner runner(1);
  std::atomic<int> arrived{0};
  std::atomic<bool> met{true};
  std::mutex mutex;
  std::set<std::thread::id> threads;
  runner.run(2, [&](size_t) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    }
    ++arrived;
    // One at a time, the first piece would wait here for a second that never starts.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (arrived < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    if (arrived < 2) met = false;
  });
  CHECK(met);
  CHECK(threads.size() == 2);
  CHECK(threads.count(std::this_thread::get_id()) == 1);
}

TEST_CASE("without helpers the caller runs every index, in order") {
  ParallelRunner runner(0);
  std::vector<size_t> order;
  runner.run(5, [&](size_t i) { order.push_back(i); });
  CHECK(order == std::vector<size_t>{0, 1, 2, 3, 4});
}

TEST_CASE("callers on several threads share the helpers and each gets its own batch done") {
  ParallelRunner runner(1);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      std::atomic<int> mine{0};
      runner.run(20, [&](size_t) {
        ++mine;
        ++total;
      });
      CHECK(mine == 20);  // run() returned only after all of its own batch
    });
  for (auto& caller : callers) caller.join();
  CHECK(total == 80);
}

TEST_CASE("an exception reaches the caller after the rest of the batch ran") {
  ParallelRunner runner(1);
  std::atomic<int> ran{0};
  CHECK_THROWS_AS(runner.run(10,
                             [&](size_t i) {
                               ++ran;
                               if (i == 3) throw std::runtime_error("piece 3 failed");
                             }),
                  std::runtime_error);
  CHECK(ran == 10);
  runner.run(2, [&](size_t) { ++ran; });  // still usable
  CHECK(ran == 12);
}

TEST_CASE("helpers get a stack as large as the caller's") {
  // An analysis thread has a large stack for clang's recursion; work handed to helpers must
  // not run out earlier.
  constexpr size_t kLarge = 64u << 20;
  std::vector<size_t> sizes(2, 0);
  auto body = [&] {
    ParallelRunner runner(1);
    std::atomic<int> arrived{0};
    runner.run(2, [&](size_t i) {
      ++arrived;
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (arrived < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
      pthread_attr_t attributes;
      if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        pthread_attr_getstacksize(&attributes, &sizes[i]);
        pthread_attr_destroy(&attributes);
      }
    });
  };
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kLarge);
  pthread_t caller;
  auto entry = [](void* f) -> void* {
    (*static_cast<decltype(body)*>(f))();
    return nullptr;
  };
  REQUIRE(pthread_create(&caller, &attributes, entry, &body) == 0);
  pthread_attr_destroy(&attributes);
  pthread_join(caller, nullptr);
  CHECK(sizes[0] >= kLarge);
  CHECK(sizes[1] >= kLarge);
}
