// The pieces of the EPUB writer: escaping, clock values, identifiers, sentence
// and chapter XHTML, overlays, navigation and package documents.
#include <gtest/gtest.h>

#include <cstdlib>

#include "assemble/epub_internal.h"
#include "epub_test_util.h"

namespace narrate {
namespace epub_internal {
namespace {

Token Tok(const std::string& text, TokenKind kind = TokenKind::kWord,
          const std::string& spoken = "", const Lang& lang = "") {
  return {kind, text, spoken.empty() ? text : spoken, lang};
}
Token Sp(const std::string& text = " ") { return Tok(text, TokenKind::kSpace); }
Token Pu(const std::string& text) { return Tok(text, TokenKind::kPunctuation); }

Utterance U(const std::string& id, std::vector<Token> tokens, const Lang& lang = "zh",
            UtteranceKind kind = UtteranceKind::kNarration, int paragraph = 1) {
  Utterance u;
  u.id = id;
  u.kind = kind;
  u.paragraph = paragraph;
  u.lang = lang;
  u.tokens = std::move(tokens);
  u.text = PrintedText(u.tokens);
  u.spoken = SpokenText(u.tokens);
  return u;
}

UtteranceClip Words(std::vector<std::string> words) {
  UtteranceClip c{0, 100 * static_cast<int64_t>(words.size()), {}};
  for (size_t i = 0; i < words.size(); ++i) {
    c.words.push_back({words[i], 100 * static_cast<int64_t>(i), 100 * static_cast<int64_t>(i + 1)});
  }
  return c;
}

std::string Element(const Utterance& u, const UtteranceClip* clip = nullptr, bool* marked = nullptr,
                    const Lang& chapter_lang = "zh") {
  return SentenceElement(u, chapter_lang, clip, marked);
}

TEST(XmlEscape, EscapesMarkupCharacters) {
  EXPECT_EQ(XmlEscape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  EXPECT_EQ(XmlEscape("拿破仑"), "拿破仑");
}

TEST(ClockValue, HoursMinutesSecondsMilliseconds) {
  EXPECT_EQ(ClockValue(0), "0:00:00.000");
  EXPECT_EQ(ClockValue(61234), "0:01:01.234");
  EXPECT_EQ(ClockValue(3723004), "1:02:03.004");
  EXPECT_EQ(ClockValue(-5), "0:00:00.000");
}

TEST(BookIdentifier, SameBookSameUuid) {
  const std::string id = BookIdentifier("拿破仑传", "路德维希");
  EXPECT_EQ(id, BookIdentifier("拿破仑传", "路德维希"));
  EXPECT_NE(id, BookIdentifier("拿破仑传", "另一位"));
  EXPECT_NE(id, BookIdentifier("Napoleon", "路德维希"));
  ASSERT_EQ(id.size(), 45u);  // urn:uuid: + 36
  EXPECT_EQ(id.substr(0, 9), "urn:uuid:");
  EXPECT_EQ(id[9 + 14], '8');                                          // version 8
  EXPECT_NE(std::string("89ab").find(id[9 + 19]), std::string::npos);  // variant 10
}

TEST(ModifiedTimestamp, FromSourceDateEpochElseFixed) {
  int64_t epoch = 0;
  ::unsetenv("SOURCE_DATE_EPOCH");
  EXPECT_EQ(ModifiedTimestamp(&epoch), "2000-01-01T00:00:00Z");
  EXPECT_EQ(epoch, 946684800);
  ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  EXPECT_EQ(ModifiedTimestamp(&epoch), "2023-11-14T22:13:20Z");
  ::setenv("SOURCE_DATE_EPOCH", "yesterday", 1);
  EXPECT_EQ(ModifiedTimestamp(nullptr), "2000-01-01T00:00:00Z");
  ::unsetenv("SOURCE_DATE_EPOCH");
}

TEST(HasText, BlankIsNoText) {
  EXPECT_TRUE(HasText(U("a", {Tok("春天")})));
  EXPECT_FALSE(HasText(U("a", {Sp("  ")})));
  EXPECT_FALSE(HasText(U("a", {Sp("\u3000\n")})));
  EXPECT_FALSE(HasText(U("a", {})));
}

TEST(SentenceElement, NarrationIsASpanWithItsId) {
  EXPECT_EQ(Element(U("c01-p0001-s01", {Tok("春天来了"), Pu("。")})),
            "<span id=\"c01-p0001-s01\" class=\"narration\">春天来了。</span>");
}

TEST(SentenceElement, PrintedNumbersStayPrinted) {
  const Utterance u = U(
      "s", {Tok("他"), Tok("1815年", TokenKind::kNumber, "一八一五年"), Tok("回到巴黎"), Pu("。")});
  EXPECT_EQ(Element(u), "<span id=\"s\" class=\"narration\">他1815年回到巴黎。</span>");
}

TEST(SentenceElement, SpeechCarriesItsSpeaker) {
  Utterance u = U("s", {Pu("“"), Tok("我们走"), Pu("。”")}, "zh", UtteranceKind::kSpeech);
  u.speaker = "老师";
  EXPECT_EQ(Element(u), "<span id=\"s\" class=\"speech\" data-speaker=\"老师\">“我们走。”</span>");
  u.speaker = "\"Le Petit\" & co";
  EXPECT_NE(Element(u).find("data-speaker=\"&quot;Le Petit&quot; &amp; co\""), std::string::npos);
  u.speaker.reset();
  EXPECT_EQ(Element(u), "<span id=\"s\" class=\"speech\">“我们走。”</span>");
}

TEST(SentenceElement, DocumentHasItsClass) {
  const Utterance u = U("s", {Tok("Milý priateľ")}, "sk", UtteranceKind::kDocument);
  EXPECT_EQ(Element(u, nullptr, nullptr, "sk"),
            "<span id=\"s\" class=\"document\">Milý priateľ</span>");
}

TEST(SentenceElement, HeadingsAreH1ForTheTitleAndH2Inside) {
  EXPECT_EQ(Element(U("h", {Tok("春天")}, "zh", UtteranceKind::kHeading, 0)),
            "<h1 id=\"h\">春天</h1>");
  EXPECT_EQ(Element(U("h", {Tok("第二节")}, "zh", UtteranceKind::kHeading, 7)),
            "<h2 id=\"h\">第二节</h2>");
}

TEST(SentenceElement, MarkupCharactersAreEscaped) {
  EXPECT_EQ(Element(U("s", {Tok("a<b&c")}, "sk"), nullptr, nullptr, "sk"),
            "<span id=\"s\" class=\"narration\">a&lt;b&amp;c</span>");
}

TEST(SentenceElement, OuterSpacesStayOutside) {
  EXPECT_EQ(Element(U("s", {Tok("Ráno"), Pu("."), Sp()}, "sk"), nullptr, nullptr, "sk"),
            "<span id=\"s\" class=\"narration\">Ráno.</span>");
}

TEST(SentenceElement, ForeignSpanGetsItsLanguage) {
  const Utterance u =
      U("s", {Tok("士兵高呼"), Tok("Vive", TokenKind::kForeign, "", "fr"),
              Tok(" ", TokenKind::kSpace, "", "fr"), Tok("la", TokenKind::kForeign, "", "fr"), Sp(),
              Tok("France", TokenKind::kForeign, "", "fr"), Pu("。")});
  EXPECT_EQ(Element(u),
            "<span id=\"s\" class=\"narration\">士兵高呼<span xml:lang=\"fr\" "
            "lang=\"fr\">Vive la France</span>。</span>");
}

TEST(SentenceElement, TwoLanguagesTwoSpans) {
  const Utterance u = U("s", {Tok("Paris", TokenKind::kForeign, "", "fr"), Tok("和"),
                              Tok("London", TokenKind::kForeign, "", "en")});
  EXPECT_EQ(Element(u),
            "<span id=\"s\" class=\"narration\"><span xml:lang=\"fr\" "
            "lang=\"fr\">Paris</span>和<span xml:lang=\"en\" "
            "lang=\"en\">London</span></span>");
}

TEST(SentenceElement, UtteranceInAnotherLanguageThanItsChapter) {
  EXPECT_EQ(Element(U("s", {Tok("Dobrý deň")}, "sk")),
            "<span id=\"s\" xml:lang=\"sk\" lang=\"sk\" class=\"narration\">Dobrý "
            "deň</span>");
}

TEST(SentenceElement, WordsGetIdsWhenTheyMatchTheText) {
  const Utterance u = U("s", {Tok("春天"), Tok("来了"), Pu("。")});
  const UtteranceClip clip = Words({"春天", "来了"});
  bool marked = false;
  EXPECT_EQ(Element(u, &clip, &marked),
            "<span id=\"s\" class=\"narration\"><span id=\"s-w01\">春天</span><span "
            "id=\"s-w02\">来了</span>。</span>");
  EXPECT_TRUE(marked);
}

TEST(SentenceElement, SlovakWordsKeepTheirSpacesBetween) {
  const Utterance u = U("s", {Tok("Ráno"), Sp(), Tok("je"), Pu(".")}, "sk");
  const UtteranceClip clip = Words({"Ráno", "je"});
  EXPECT_EQ(Element(u, &clip, nullptr, "sk"),
            "<span id=\"s\" class=\"narration\"><span id=\"s-w01\">Ráno</span> <span "
            "id=\"s-w02\">je</span>.</span>");
}

TEST(SentenceElement, WordsThatDoNotMatchLeaveTheSentenceWhole) {
  const Utterance u = U("s", {Tok("春天"), Tok("来了"), Pu("。")});
  bool marked = true;
  const UtteranceClip other = Words({"春天", "走了"});
  EXPECT_EQ(Element(u, &other, &marked), "<span id=\"s\" class=\"narration\">春天来了。</span>");
  EXPECT_FALSE(marked);
  const UtteranceClip missing = Words({"春天"});  // 来了 left without a word
  EXPECT_EQ(Element(u, &missing, &marked), "<span id=\"s\" class=\"narration\">春天来了。</span>");
  EXPECT_FALSE(marked);
}

TEST(SentenceElement, WordsMayCarryTheirSpacesAndPunctuation) {
  const Utterance u = U("s", {Pu("“"), Tok("Ráno"), Sp(), Tok("je"), Pu(".”"), Sp()}, "sk");
  const UtteranceClip clip = Words({"“Ráno ", "je.” "});
  bool marked = false;
  EXPECT_EQ(Element(u, &clip, &marked, "sk"),
            "<span id=\"s\" class=\"narration\">“<span id=\"s-w01\">Ráno</span> <span "
            "id=\"s-w02\">je</span>.”</span>");
  EXPECT_TRUE(marked);
}

TEST(SentenceElement, AWordOfPunctuationAloneIsSkipped) {
  const Utterance u = U("s", {Tok("走"), Pu("……")});
  const UtteranceClip clip = Words({"走", "……"});
  EXPECT_EQ(Element(u, &clip),
            "<span id=\"s\" class=\"narration\"><span id=\"s-w01\">走</span>……</span>");
}

TEST(SentenceElement, ForeignWordNestsWithItsWordSpan) {
  const Utterance u = U("s", {Tok("他说"), Tok("merci", TokenKind::kForeign, "", "fr")});
  const UtteranceClip clip = Words({"他说", "merci"});
  EXPECT_EQ(Element(u, &clip),
            "<span id=\"s\" class=\"narration\"><span id=\"s-w01\">他说</span><span "
            "xml:lang=\"fr\" lang=\"fr\"><span id=\"s-w02\">merci</span></span></span>");
}

TEST(SentenceElement, WordAcrossALanguageBoundaryFallsBackToTheSentence) {
  const Utterance u = U("s", {Tok("他说"), Tok("merci", TokenKind::kForeign, "", "fr")});
  const UtteranceClip clip = Words({"他说me", "rci"});
  bool marked = true;
  EXPECT_EQ(Element(u, &clip, &marked),
            "<span id=\"s\" class=\"narration\">他说<span xml:lang=\"fr\" "
            "lang=\"fr\">merci</span></span>");
  EXPECT_FALSE(marked);
}

TEST(SentenceElement, ForeignSpanInsideAWordNests) {
  const Utterance u = U("s", {Tok("他说"), Tok("merci", TokenKind::kForeign, "", "fr")});
  const UtteranceClip clip = Words({"他", "说merci"});
  EXPECT_EQ(Element(u, &clip),
            "<span id=\"s\" class=\"narration\"><span id=\"s-w01\">他</span><span "
            "id=\"s-w02\">说<span xml:lang=\"fr\" lang=\"fr\">merci</span></span></span>");
}

Chapter TwoParagraphs() {
  Chapter c;
  c.index = 2;
  c.title = "Jeseň";
  c.lang = "sk";
  c.utterances = {
      U("h", {Tok("Jeseň")}, "sk", UtteranceKind::kHeading, 0),
      U("a", {Tok("Padá"), Sp(), Tok("lístie"), Pu("."), Sp()}, "sk"),
      U("b", {Tok("Je"), Sp(), Tok("chladno"), Pu(".")}, "sk"),
      U("blank", {Sp("  ")}, "sk", UtteranceKind::kNarration, 2),
      U("c", {Tok("Zima"), Pu(".")}, "sk", UtteranceKind::kDocument, 3),
  };
  return c;
}

TEST(ChapterXhtml, ParagraphsHoldTheirSentences) {
  const Chapter chapter = TwoParagraphs();
  EpubChapter ec{&chapter, "c02", "audio/02.mp3", "", 0, {}};
  const std::string xhtml = ChapterXhtml(ec, nullptr);
  EXPECT_NE(xhtml.find("xml:lang=\"sk\" lang=\"sk\""), std::string::npos);
  EXPECT_NE(xhtml.find("<title>Jeseň</title>"), std::string::npos);
  EXPECT_NE(xhtml.find("<h1 id=\"h\">Jeseň</h1>\n<p><span id=\"a\" class=\"narration\">"
                       "Padá lístie.</span> <span id=\"b\" class=\"narration\">Je "
                       "chladno.</span></p>\n<p class=\"document\"><span id=\"c\""),
            std::string::npos)
      << xhtml;
  EXPECT_EQ(xhtml.find("blank"), std::string::npos);
  auto root = narrate_test::XmlReader::Parse(xhtml);
  ASSERT_NE(root, nullptr) << xhtml;
  EXPECT_EQ(root->All("p").size(), 2u);
}

TEST(ChapterXhtml, ChapterWithoutTitleHeadingStillHasAnH1) {
  Chapter chapter = TwoParagraphs();
  chapter.utterances.erase(chapter.utterances.begin());
  EpubChapter ec{&chapter, "c02", "audio/02.mp3", "", 0, {}};
  EXPECT_NE(ChapterXhtml(ec, nullptr).find("<h1>Jeseň</h1>"), std::string::npos);
}

TEST(ChapterXhtml, CreditsBeforeTheTitleKeepOneH1) {
  Chapter chapter = TwoParagraphs();
  chapter.utterances.insert(chapter.utterances.begin(), U("credits", {Tok("Malá kniha"), Pu(".")},
                                                          "sk", UtteranceKind::kNarration, 0));
  EpubChapter ec{&chapter, "c02", "audio/02.mp3", "", 0, {}};
  const std::string xhtml = ChapterXhtml(ec, nullptr);
  auto root = narrate_test::XmlReader::Parse(xhtml);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->All("h1").size(), 1u) << xhtml;
  EXPECT_LT(xhtml.find("id=\"credits\""), xhtml.find("<h1 id=\"h\">"));
}

TEST(ChapterSmil, OneParPerSentenceInReadingOrder) {
  const Chapter chapter = TwoParagraphs();
  EpubChapter ec{&chapter, "c02", "audio/02-jesen.mp3", "", 9000, {}};
  ec.clips = {{"h", {700, 1500, {}}},
              {"a", {2700, 4000, {}}},
              {"b", {4350, 5000, {}}},
              {"c", {5750, 7000, {}}}};
  auto root = narrate_test::XmlReader::Parse(ChapterSmil(ec));
  ASSERT_NE(root, nullptr);
  const auto pars = root->All("par");
  ASSERT_EQ(pars.size(), 4u);
  const char* ids[] = {"h", "a", "b", "c"};
  for (size_t i = 0; i < pars.size(); ++i) {
    EXPECT_EQ(pars[i]->All("text")[0]->attributes.at("src"), std::string("c02.xhtml#") + ids[i]);
    EXPECT_EQ(pars[i]->All("audio")[0]->attributes.at("src"), "audio/02-jesen.mp3");
  }
  EXPECT_EQ(pars[1]->All("audio")[0]->attributes.at("clipBegin"), "0:00:02.700");
  EXPECT_EQ(pars[1]->All("audio")[0]->attributes.at("clipEnd"), "0:00:04.000");
  EXPECT_EQ(OverlayDurationMs(ec), 800 + 1300 + 650 + 1250);
}

TEST(NavXhtml, ChaptersWithTheirSections) {
  Chapter one = TwoParagraphs();
  one.index = 1;
  one.lang = "zh";
  one.title = "春天";
  one.utterances.push_back(U("sec", {Tok("第二节")}, "zh", UtteranceKind::kHeading, 4));
  Chapter two = TwoParagraphs();
  Script script;
  script.title = "小书";
  script.lang = "zh";
  std::vector<EpubChapter> chapters = {{&one, "c01", "", "", 0, {}}, {&two, "c02", "", "", 0, {}}};
  const std::string nav = NavXhtml(script, chapters);
  auto root = narrate_test::XmlReader::Parse(nav);
  ASSERT_NE(root, nullptr) << nav;
  const auto links = root->All("a");
  ASSERT_EQ(links.size(), 4u);  // 2 chapters, 1 section, 1 landmark
  EXPECT_EQ(links[0]->attributes.at("href"), "c01.xhtml#h");
  EXPECT_EQ(links[1]->attributes.at("href"), "c01.xhtml#sec");
  EXPECT_EQ(links[1]->text, "第二节");
  EXPECT_EQ(links[2]->text, "Jeseň");
  EXPECT_NE(nav.find("<h1>目录</h1>"), std::string::npos);
  EXPECT_NE(nav.find("<li xml:lang=\"sk\" lang=\"sk\"><a href=\"c02.xhtml#h\">"),
            std::string::npos);
}

TEST(PackageOpf, OverlayAndAccessibilityMetadata) {
  Chapter one = TwoParagraphs();
  one.lang = "zh";
  Chapter two = TwoParagraphs();
  Script script;
  script.title = "小书 & co";
  script.author = "测试";
  script.lang = "zh";
  std::vector<EpubChapter> chapters = {{&one, "c01", "audio/01.mp3", "", 0, {}},
                                       {&two, "c02", "audio/02.mp3", "", 0, {}}};
  chapters[0].clips = {{"a", {0, 1500, {}}}};
  chapters[1].clips = {{"a", {100, 2600, {}}}};
  const std::string opf = PackageOpf(script, chapters, {"urn:uuid:x", "2000-01-01T00:00:00Z"});
  ASSERT_NE(narrate_test::XmlReader::Parse(opf), nullptr) << opf;
  for (const char* want :
       {"<dc:title>小书 &amp; co</dc:title>",
        "<dc:language>zh</dc:language>\n"
        "<dc:language>sk</dc:language>",
        "refines=\"#c01-overlay\">0:00:01.500<", "refines=\"#c02-overlay\">0:00:02.500<",
        "<meta property=\"media:duration\">0:00:04.000<",
        "<meta property=\"media:active-class\">-epub-media-overlay-active<",
        "\"schema:accessMode\">textual<", "\"schema:accessMode\">auditory<",
        "\"schema:accessModeSufficient\">auditory<",
        "\"schema:accessibilityFeature\">synchronizedAudioText<",
        "\"schema:accessibilityFeature\">structuralNavigation<",
        "\"schema:accessibilityHazard\">none<", "schema:accessibilitySummary",
        "media-overlay=\"c02-overlay\"", "href=\"audio/02.mp3\" media-type=\"audio/mpeg\"",
        "<itemref idref=\"c01\"/>\n<itemref idref=\"c02\"/>"}) {
    EXPECT_NE(opf.find(want), std::string::npos) << want;
  }
}

TEST(StyleSheet, StylesTheActiveClass) {
  EXPECT_NE(StyleSheet().find(".-epub-media-overlay-active {"), std::string::npos);
}

}  // namespace
}  // namespace epub_internal
}  // namespace narrate
