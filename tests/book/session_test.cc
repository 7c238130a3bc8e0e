// BookSession: the script it prepares (credits as markup input, a text said
// alone), its errors, and the voice of every request.
#include "book/book.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace narrate {
namespace {

const std::string kMini = std::string(NARRATE_TEST_DATA) + "/books/mini";

std::unique_ptr<BookSession> Open(const StatusOr<Book>& book, int jobs = 2) {
  EXPECT_TRUE(book.ok()) << book.status().message();
  auto session = BookSession::Open(*book, SessionOptions{jobs, "", ""});
  EXPECT_TRUE(session.ok()) << session.status().message();
  return session.ok() ? std::move(session).value() : nullptr;
}

TEST(BookSession, CreditsOpenTheFirstChapterAndCloseTheLast) {
  auto session = Open(LoadBook(kMini));
  ASSERT_NE(session, nullptr);
  CollectingReporter reporter;
  StatusOr<Script> script = session->Prepare(&reporter);
  ASSERT_TRUE(script.ok()) << script.status().message();
  ASSERT_EQ(script->chapters.size(), 2u);
  const Utterance& open = script->chapters.front().utterances.front();
  EXPECT_EQ(open.id, "c01-credits-open");
  EXPECT_EQ(open.kind, UtteranceKind::kNarration);
  EXPECT_EQ(open.voice, "narrator");
  EXPECT_EQ(open.lang, "zh");
  EXPECT_EQ(open.paragraph, 0);
  EXPECT_EQ(open.text.rfind("小书", 0), 0u) << open.text;  // the title first
  EXPECT_NE(open.text.find("测试"), std::string::npos);    // then the author
  // The chapter title follows the credits.
  EXPECT_EQ(script->chapters.front().utterances[1].kind, UtteranceKind::kHeading);
  const Chapter& last = script->chapters.back();
  const Utterance& close = last.utterances.back();
  EXPECT_EQ(close.id, "c02-credits-close");
  EXPECT_EQ(close.kind, UtteranceKind::kNarration);
  EXPECT_GT(close.paragraph, last.utterances[last.utterances.size() - 2].paragraph);
}

TEST(BookSession, TheSameScriptWhateverTheJobs) {
  auto one = Open(LoadBook(kMini), 1);
  auto four = Open(LoadBook(kMini), 4);
  CollectingReporter r1, r4;
  StatusOr<Script> a = one->Prepare(&r1);
  StatusOr<Script> b = four->Prepare(&r4);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->chapters.size(), b->chapters.size());
  for (size_t c = 0; c < a->chapters.size(); ++c) {
    ASSERT_EQ(a->chapters[c].utterances.size(), b->chapters[c].utterances.size());
    for (size_t i = 0; i < a->chapters[c].utterances.size(); ++i) {
      EXPECT_EQ(a->chapters[c].utterances[i].id, b->chapters[c].utterances[i].id);
      EXPECT_EQ(a->chapters[c].utterances[i].spoken, b->chapters[c].utterances[i].spoken);
    }
  }
  EXPECT_EQ(r1.diagnostics().size(), r4.diagnostics().size());
}

TEST(BookSession, ATextSaidAloneHasNoCreditsAndNoTitle) {
  auto session = Open(BookFromText("Dobrý deň. Ako sa máte?\n", "sk"));
  ASSERT_NE(session, nullptr);
  CollectingReporter reporter;
  StatusOr<Script> script = session->Prepare(&reporter);
  ASSERT_TRUE(script.ok()) << script.status().message();
  ASSERT_EQ(script->chapters.size(), 1u);
  const std::vector<Utterance>& us = script->chapters[0].utterances;
  ASSERT_EQ(us.size(), 2u);
  EXPECT_EQ(us[0].text, "Dobrý deň. ");
  EXPECT_EQ(us[1].text, "Ako sa máte?");
  for (const Utterance& u : us) EXPECT_EQ(u.kind, UtteranceKind::kNarration);
}

TEST(BookSession, TheLanguageOfATextIsGuessed) {
  StatusOr<Book> zh = BookFromText("他说：“我们走吧。”\n", "");
  ASSERT_TRUE(zh.ok());
  EXPECT_EQ(zh->lang, "zh");
  StatusOr<Book> sk = BookFromText("Povedal, že príde zajtra.\n", "");
  ASSERT_TRUE(sk.ok());
  EXPECT_EQ(sk->lang, "sk");
  EXPECT_EQ(BookFromText("text", "fr").status().code(), StatusCode::kUsage);
}

TEST(BookSession, AnUnknownVoiceIsADataErrorNamingItAndTheUtterance) {
  auto session = Open(LoadBook(kMini));
  ASSERT_NE(session, nullptr);
  Utterance u;
  u.id = "c01-p0001-s01";
  u.voice = "no-such-voice";
  StatusOr<SynthRequest> request = session->RequestFor(u);
  ASSERT_FALSE(request.ok());
  EXPECT_EQ(request.status().code(), StatusCode::kDataError);
  EXPECT_NE(request.status().message().find("no-such-voice"), std::string::npos);
  EXPECT_NE(request.status().message().find(u.id), std::string::npos);
  u.voice = "narrator";
  ASSERT_TRUE(session->RequestFor(u).ok());
  EXPECT_EQ(session->RequestFor(u)->timbre.name, "narrator");
}

TEST(BookSession, AMalformedCastFailsToOpenNamingTheFileAndLine) {
  char tmpl[] = "/tmp/narrate-session-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  std::ofstream(dir + "/book.toml") << "title = \"t\"\nlanguage = \"sk\"\n"
                                       "[[chapters]]\nfile = \"a.txt\"\n";
  std::ofstream(dir + "/a.txt") << "Text.\n";
  std::ofstream(dir + "/cast.toml") << "[[speaker]]\nname = \"Ján\"\ngender = \"x\"\n";
  StatusOr<Book> book = LoadBook(dir);
  ASSERT_TRUE(book.ok()) << book.status().message();
  auto session = BookSession::Open(*book, SessionOptions());
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kDataError);
  EXPECT_NE(session.status().message().find(dir + "/cast.toml:"), std::string::npos)
      << session.status().message();
}

TEST(BookSession, JobsMustBePositive) {
  StatusOr<Book> book = LoadBook(kMini);
  ASSERT_TRUE(book.ok());
  EXPECT_EQ(BookSession::Open(*book, SessionOptions{0, "", ""}).status().code(),
            StatusCode::kUsage);
}

}  // namespace
}  // namespace narrate
