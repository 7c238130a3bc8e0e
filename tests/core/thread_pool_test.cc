// ThreadPool and TaskGroup: tasks run, a wait runs its group's queued tasks
// itself, and waits inside tasks never deadlock a pool whose threads are busy.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "core/core.h"

namespace narrate {
namespace {

TEST(ThreadPool, RunsEveryTaskOfAGroup) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  {
    TaskGroup group(&pool);
    for (int i = 0; i < 100; ++i) group.Run([&ran] { ++ran; });
    group.Wait();
    EXPECT_EQ(ran.load(), 100);
  }
  EXPECT_EQ(pool.threads(), 2);
}

TEST(ThreadPool, WithoutThreadsTheWaiterRunsTheTasks) {
  ThreadPool pool(0);
  const std::thread::id me = std::this_thread::get_id();
  std::vector<std::thread::id> where;
  TaskGroup group(&pool);
  for (int i = 0; i < 3; ++i) group.Run([&] { where.push_back(std::this_thread::get_id()); });
  EXPECT_TRUE(where.empty());  // nothing runs before the wait
  group.Wait();
  ASSERT_EQ(where.size(), 3u);
  for (const std::thread::id& id : where) EXPECT_EQ(id, me);
}

TEST(ThreadPool, ATaskWaitingForQueuedTasksRunsThemItself) {
  // One thread: the outer task holds it, and the inner tasks are queued
  // behind it. Its wait must run them rather than wait for a free thread.
  ThreadPool pool(1);
  std::atomic<int> inner{0};
  TaskGroup outer(&pool);
  outer.Run([&] {
    TaskGroup group(&pool);
    for (int i = 0; i < 5; ++i) group.Run([&inner] { ++inner; });
    group.Wait();
  });
  outer.Wait();
  EXPECT_EQ(inner.load(), 5);
}

TEST(ThreadPool, WaitReturnsOnlyWhenRunningTasksHaveFinished) {
  ThreadPool pool(1);
  std::atomic<bool> release{false};
  std::atomic<bool> finished{false};
  TaskGroup group(&pool);
  group.Run([&] {
    while (!release) std::this_thread::yield();
    finished = true;
  });
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    release = true;
  });
  group.Wait();
  EXPECT_TRUE(finished.load());
  releaser.join();
}

TEST(ThreadPool, AGroupGoesOnlyOnceItsTasksHaveRun) {
  ThreadPool pool(0);
  int ran = 0;
  {
    TaskGroup group(&pool);
    group.Run([&ran] { ++ran; });
  }
  EXPECT_EQ(ran, 1);
}

}  // namespace
}  // namespace narrate
