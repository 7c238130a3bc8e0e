// BlockStage: blocks are processed in order, once each, whether the pool has a
// thread free, none at all, or no pool; the first failure stops the rest.
#include "assemble/block_stage.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace narrate {
namespace assemble_internal {
namespace {

// Adds blocks 0..n-1 (one value each) and returns what was processed.
std::vector<int> RunStage(ThreadPool* pool, int n) {
  std::vector<int> seen;
  BlockStage<int> stage(pool, [&seen](const std::vector<int>& block) {
    seen.push_back(block.at(0));
    return Status::Ok();
  });
  for (int i = 0; i < n; ++i) EXPECT_TRUE(stage.Add(&i, 1).ok());
  EXPECT_TRUE(stage.Drain().ok());
  return seen;
}

std::vector<int> Expected(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

TEST(BlockStage, InOrderOnAPool) {
  ThreadPool pool(2);
  EXPECT_EQ(RunStage(&pool, 200), Expected(200));
}

TEST(BlockStage, InOrderWithoutAPool) { EXPECT_EQ(RunStage(nullptr, 50), Expected(50)); }

TEST(BlockStage, InOrderWhenThePoolsThreadsAreAllBusy) {
  // The pool's one thread is held until the stage is done: every block is
  // processed by the adding thread instead, and nothing waits for a thread.
  ThreadPool pool(1);
  std::atomic<bool> release{false};
  TaskGroup blocker(&pool);
  blocker.Run([&release] {
    while (!release) std::this_thread::yield();
  });
  EXPECT_EQ(RunStage(&pool, 50), Expected(50));
  release = true;
}

TEST(BlockStage, TheFirstFailureStopsWhatFollows) {
  ThreadPool pool(1);
  int processed = 0;
  BlockStage<int> stage(&pool, [&processed](const std::vector<int>& block) {
    ++processed;
    return block[0] == 3 ? Status::IoError("disk full") : Status::Ok();
  });
  Status added;
  for (int i = 0; i < 20 && added.ok(); ++i) added = stage.Add(&i, 1);
  EXPECT_EQ(stage.Drain().code(), StatusCode::kIoError);
  EXPECT_EQ(processed, 4);  // 0, 1, 2 and the failing 3
}

}  // namespace
}  // namespace assemble_internal
}  // namespace narrate
