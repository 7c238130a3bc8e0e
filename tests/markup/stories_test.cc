// Speaker attribution without a cast, scored on stories the code was not
// written for (tests/data/markup/stories/: original texts with hand-written
// gold, see its README). Each story is read as a new user's single file is:
// no cast.toml, no overrides. The figures are printed; the test fails when
// they fall below what the code reached when they were last raised (a
// ratchet: raise the floors with the code), not at issue 15's targets (0.9 of
// the speeches with the right person and gender), which today's attribution
// does not reach.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "book/book.h"

namespace narrate {
namespace {

const std::string kStories = std::string(NARRATE_TEST_DATA) + "/markup/stories";

struct Score {
  int gold = 0;        // speeches in the gold
  int found = 0;       // of them, read as speech
  int person = 0;      // of them, attributed to the right person
  int right = 0;       // of them, the right person with the right gender
  int claimed = 0;     // speeches attributed to someone (not "unknown")
  int sure = 0;        // of them, with a confidence of 0.8 or more
  int sure_right = 0;  // of those, to the right person
  std::map<std::string, std::pair<int, int>> by_evidence;  // right, all
};

// canonical name -> every name the story calls that person by.
std::map<std::string, std::vector<std::string>> Aliases(const std::string& stem) {
  std::map<std::string, std::vector<std::string>> aliases;
  StatusOr<std::vector<TsvRow>> rows = ReadTsv(kStories + "/" + stem + ".cast.tsv", 3, 3);
  EXPECT_TRUE(rows.ok()) << rows.status().message();
  if (!rows.ok()) return aliases;
  for (const TsvRow& row : *rows) {
    std::vector<std::string>& names = aliases[row.fields[0]];
    names.push_back(row.fields[0]);
    size_t start = 0;
    for (size_t bar; (bar = row.fields[2].find('|', start)) != std::string::npos; start = bar + 1) {
      names.push_back(row.fields[2].substr(start, bar - start));
    }
    names.push_back(row.fields[2].substr(start));
  }
  return aliases;
}

void ScoreStory(const std::string& stem, Score* score) {
  const std::string text = kStories + "/" + stem + ".txt";
  StatusOr<Book> book = BookFromFile(text, "");
  ASSERT_TRUE(book.ok()) << book.status().message();
  auto session = BookSession::Open(*book, SessionOptions());
  ASSERT_TRUE(session.ok()) << session.status().message();
  CollectingReporter reporter;
  StatusOr<Script> script = (*session)->Prepare(&reporter);
  ASSERT_TRUE(script.ok()) << script.status().message();
  std::map<int, const Utterance*> speech_at;  // line -> its first speech utterance
  for (const Chapter& c : script->chapters) {
    for (const Utterance& u : c.utterances) {
      if (u.kind == UtteranceKind::kSpeech && !speech_at.count(u.line)) speech_at[u.line] = &u;
    }
  }
  const auto aliases = Aliases(stem);
  StatusOr<std::vector<TsvRow>> gold = ReadTsv(kStories + "/" + stem + ".gold.tsv", 5, 5);
  ASSERT_TRUE(gold.ok()) << gold.status().message();
  for (const TsvRow& row : *gold) {
    ++score->gold;
    const auto at = speech_at.find(std::stoi(row.fields[0]));
    if (at == speech_at.end()) continue;
    ++score->found;
    const Utterance& u = *at->second;
    if (u.speaker && *u.speaker != "unknown") ++score->claimed;
    const auto names = aliases.find(row.fields[2]);
    ASSERT_NE(names, aliases.end()) << stem << ": " << row.fields[2] << " is not in the cast";
    const bool person = u.speaker && std::find(names->second.begin(), names->second.end(),
                                               *u.speaker) != names->second.end();
    score->person += person;
    auto& evidence = score->by_evidence[ToString(u.evidence)];
    evidence.first += person;
    ++evidence.second;
    if (u.confidence >= 0.8) {
      ++score->sure;
      score->sure_right += person;
    }
    score->right += person && (u.gender == row.fields[3] || (row.fields[3] == "p"));
  }
}

Score ScoreLanguage(const std::vector<std::string>& stems) {
  Score score;
  for (const std::string& stem : stems) ScoreStory(stem, &score);
  // Issue 15: attributions with a confidence of 0.8 or more are right at
  // least 97% of the time (2026-12-01, without a cast: 144 of 145 Chinese,
  // 112 of 112 Slovak).
  EXPECT_GE(score.sure_right, 0.97 * score.sure);
  EXPECT_GE(score.sure, score.gold / 4) << "too few sure attributions to check the 97%";
  return score;
}

void Print(const char* lang, const Score& s) {
  std::printf(
      "%s stories: %d speeches; read as speech %d (%.2f); right person %d (recall %.2f); right "
      "person and gender %d (%.2f); attributed to someone %d, of them right (precision %.2f)\n",
      lang, s.gold, s.found, s.found / double(s.gold), s.person, s.person / double(s.gold), s.right,
      s.right / double(s.gold), s.claimed, s.claimed ? s.person / double(s.claimed) : 0.0);
  std::printf("  confidence >= 0.8: %d, of them right %d; by evidence (right/all):", s.sure,
              s.sure_right);
  for (const auto& [evidence, counts] : s.by_evidence) {
    std::printf(" %s %d/%d", evidence.c_str(), counts.first, counts.second);
  }
  std::printf("\n");
}

// The floors are what the code reached when last raised; issue 15's target
// is 0.9 of the speeches with the right person and gender on unseen texts.
// Each story was first measured before any code was tuned on it (see the
// README, which has those first figures); they were lower.
TEST(Stories, ChineseWithoutACast) {
  const Score s = ScoreLanguage({"zh_market", "zh_clinic", "zh_school", "zh_dumplings", "zh_train",
                                 "zh_bus", "zh_repair", "zh_wedding", "zh_hospital", "zh_village",
                                 "zh_moving", "zh_noodles", "zh_blackout", "zh_fishing",
                                 "zh_pharmacy", "zh_orchard", "zh_barber", "zh_exam"});
  Print("Chinese", s);
  // 2026-12-01, the first four stories: 1 right person before the people of
  // a chapter were discovered, 37 of 85 with the turns of a dialogue across
  // paragraphs. All fourteen, with clause openings, titles, foreign names,
  // the exchange's turns and genders before pronouns: 317 of 337 right person
  // (0.94; precision 0.94), 262 with the gender (0.78); with a pronoun's every
  // part passed on together, 266; with plurals kept apart from the noun when
  // that is no group word (孩子们), 319 and 268 (0.80); with names speakers
  // give themselves (我叫陈浩), 320 and 270; 321. Session 8: zh_pharmacy and
  // zh_orchard added (46 of 56 right person and gender at first); with the
  // gender Chinese leaves unmarked (a man), names the narration gives (她叫…),
  // the pronoun opening the next sentence, a role noun before a name (女儿
  // 许楠), and full names by their shape whatever found them: 373 of 393
  // right person (0.95), 368 with the gender (0.94). Then zh_barber and
  // zh_exam, first scored on that code: 41 of 51 right person, 39 with the
  // gender (0.76); all eighteen: 414 and 407 of 444.
  EXPECT_EQ(s.gold, 444);
  EXPECT_GE(s.found, 444);
  EXPECT_GE(s.person, 414);
  EXPECT_GE(s.right, 407);
}

TEST(Stories, SlovakWithoutACast) {
  const Score s = ScoreLanguage({"sk_dielna", "sk_ambulancia", "sk_chata", "sk_vlak", "sk_obchod",
                                 "sk_futbal", "sk_posta", "sk_svadba", "sk_trh", "sk_vylet",
                                 "sk_kniznica", "sk_dazd", "sk_pekaren", "sk_autoskola",
                                 "sk_nemocnica", "sk_salas", "sk_hasici", "sk_kaviaren"});
  Print("Slovak", s);
  // 2026-12-01, the first four stories: 18 of 93 right person at first, 36
  // with declined forms as one person. All fourteen, with the exchange's
  // turns, dash speech after narration, titles and role nouns before names,
  // e-drop declensions and genders by name endings: 302 of 342 right person
  // (0.88; precision 0.90), 302 with the gender; with role nouns who say
  // their own name (Volám sa Nováková), 305; with names called in speech and
  // narrated (– Adam, vstávaj. … Adam vyšiel), 310 (0.91); with the gender
  // of a subject a past tense leaves out (Vstala, …), 311; with subordinate
  // clauses not naming the subject (Kým predavačka krájala, Peter…), 314.
  // Session 8: sk_nemocnica and sk_salas added (34 of 56 at first); with
  // "Kubala sa volám", a speech nobody was found for that says whose it is
  // (Ja som Mirka), and more role nouns (bača): 354 of 398 (0.89). Then
  // sk_hasici and sk_kaviaren, first scored on that code: 40 of 51 right
  // person, 35 with the gender (0.69); all eighteen: 394 and 389 of 449.
  EXPECT_EQ(s.gold, 449);
  EXPECT_GE(s.found, 449);
  EXPECT_GE(s.person, 394);
  EXPECT_GE(s.right, 389);
}

}  // namespace
}  // namespace narrate
