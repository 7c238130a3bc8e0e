// ClipCache: what a folder holds is found, stored clips read back, waits end
// when the clip comes or when synthesis is over.
#include "book/clip_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "synth/synth.h"

namespace narrate {
namespace {

std::string Scratch() {
  char tmpl[] = "/tmp/narrate-clipcache-XXXXXX";
  return ::mkdtemp(tmpl);
}

Clip SomeClip(int16_t level) {
  Clip clip;
  clip.samples.assign(100, level);
  clip.words.push_back({"word ", 0, 100});
  return clip;
}

TEST(ClipCache, FindsTheClipsAlreadyThere) {
  const std::string dir = Scratch();
  ASSERT_TRUE(WriteClip(dir + "/abc.clip", SomeClip(5)).ok());
  auto cache = ClipCache::Open(dir, false);
  ASSERT_TRUE(cache.ok());
  EXPECT_TRUE((*cache)->Has("abc"));
  EXPECT_FALSE((*cache)->Has("abd"));
  StatusOr<Clip> clip = (*cache)->Load("abc");
  ASSERT_TRUE(clip.ok());
  EXPECT_EQ(clip->samples, SomeClip(5).samples);
  StatusOr<ClipSummary> summary = (*cache)->LoadSummary("abc");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->length, 100);
}

TEST(ClipCache, StoresAndReadsBack) {
  const std::string dir = Scratch() + "/made";
  auto cache = ClipCache::Open(dir, true);
  ASSERT_TRUE(cache.ok());
  ASSERT_TRUE((*cache)->Store("k1", SomeClip(7)).ok());
  EXPECT_TRUE((*cache)->Has("k1"));
  EXPECT_EQ((*cache)->Load("k1")->samples, SomeClip(7).samples);
  // A new cache over the folder lists it.
  EXPECT_TRUE((*ClipCache::Open(dir, false))->Has("k1"));
}

TEST(ClipCache, WithoutAFolderItHoldsAndKeepsNothing) {
  const std::string dir = Scratch() + "/never-made";
  auto cache = ClipCache::Open(dir, false);
  ASSERT_TRUE(cache.ok());
  EXPECT_TRUE((*cache)->Store("k", SomeClip(1)).ok());
  EXPECT_FALSE((*cache)->Has("k"));
  EXPECT_NE(::access(dir.c_str(), F_OK), 0);  // not created
}

TEST(ClipCache, AWaitEndsWhenTheClipIsStored) {
  auto cache = ClipCache::Open(Scratch(), true);
  ASSERT_TRUE(cache.ok());
  std::thread producer([&] { ASSERT_TRUE((*cache)->Store("late", SomeClip(3)).ok()); });
  EXPECT_TRUE((*cache)->WaitFor("late").ok());
  producer.join();
  EXPECT_EQ((*cache)->Load("late")->samples, SomeClip(3).samples);
}

TEST(ClipCache, AWaitEndsWithTheFailureThatClosedIt) {
  auto cache = ClipCache::Open(Scratch(), true);
  ASSERT_TRUE(cache.ok());
  std::thread closer([&] { (*cache)->Close(Status::IoError("disk full")); });
  Status waited = (*cache)->WaitFor("never");
  closer.join();
  EXPECT_EQ(waited.code(), StatusCode::kIoError);
  // Closed without a failure, a clip that never came is a failure too.
  auto other = ClipCache::Open(Scratch(), true);
  (*other)->Close(Status::Ok());
  EXPECT_EQ((*other)->WaitFor("never").code(), StatusCode::kFailure);
}

}  // namespace
}  // namespace narrate
