// Slovak normalization: spoken forms of numbers, dates, ordinals, Roman
// numerals, percentages and abbreviations, as a careful narrator says them.
#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <string>

#include "normalize/normalize.h"

namespace narrate {
namespace {

class SlovakNormalizeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto created =
        Normalizer::Create({"sk", NARRATE_SOURCE_DIR "/pipeline/normalize/rules", {}, false});
    ASSERT_TRUE(created.ok()) << created.status().message();
    normalizer_ = std::move(created).value().release();
  }
  static void TearDownTestSuite() { delete normalizer_; }

  static std::string Say(const std::string& text) {
    CollectingReporter reporter;
    NormalizedParagraph p = normalizer_->Normalize(Paragraph{text, 1}, "t.txt", &reporter);
    EXPECT_EQ(PrintedText(p.tokens), text);
    return SpokenText(p.tokens);
  }

  static Normalizer* normalizer_;
};

Normalizer* SlovakNormalizeTest::normalizer_ = nullptr;

struct Case {
  const char* text;
  const char* spoken;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.text; }

class SlovakCases : public SlovakNormalizeTest, public ::testing::WithParamInterface<Case> {};

TEST_P(SlovakCases, Spoken) { EXPECT_EQ(Say(GetParam().text), GetParam().spoken); }

// The forms from the issue.
INSTANTIATE_TEST_SUITE_P(
    Issue, SlovakCases,
    ::testing::Values(
        Case{"blížilo sa 200 000 Rakúšanov", "blížilo sa dvestotisíc Rakúšanov"},
        Case{"stálo 24 000 Španielov", "stálo dvadsaťštyritisíc Španielov"},
        Case{"18. júna 1815", "osemnásteho júna tisícosemstopätnásť"},
        Case{"Ľudovít XVIII. vstúpil", "Ľudovít Osemnásty vstúpil"},
        Case{"poslal Ľudovítovi XIII. list", "poslal Ľudovítovi Trinástemu list"},
        Case{"šancu v Ľudovítovi XIII. Zatiaľ", "šancu v Ľudovítovi Trinástom. Zatiaľ"},
        Case{"podporovalo Napoleona II. Snemovne", "podporovalo Napoleona Druhého. Snemovne"},
        Case{"95 % hlasov", "deväťdesiatpäť percent hlasov"}));

INSTANTIATE_TEST_SUITE_P(
    Cardinals, SlovakCases,
    ::testing::Values(
        Case{"5 vojakov", "päť vojakov"},
        Case{"mal 170 000 mužov", "mal stosedemdesiattisíc mužov"},
        Case{"1 000 000 ľudí", "jeden milión ľudí"},
        Case{"2 500 000 obyvateľov", "dva milióny päťstotisíc obyvateľov"},
        Case{"200\u00A0000 mužov", "dvestotisíc mužov"},
        Case{"12\u202F500 koní", "dvanásťtisícpäťsto koní"}, Case{"1000 koní", "tisíc koní"},
        Case{"101 dní", "stojeden dní"}, Case{"2 ženy", "dve ženy"}, Case{"2 mestá", "dve mestá"},
        Case{"2 vozy", "dva vozy"}, Case{"teplota -5 stupňov", "teplota mínus päť stupňov"},
        Case{"3,5 litra", "tri celé päť litra"}, Case{"1,5 dňa", "jedna celá päť dňa"},
        Case{"0,05 sekundy", "nula celých nula päť sekundy"},
        Case{"7,25 metra", "sedem celých dvadsaťpäť metra"},
        Case{"roky 1812, 1813", "roky tisícosemstodvanásť, tisícosemstotrinásť"},
        Case{"v rokoch 1812-1815", "v rokoch tisícosemstodvanásť až tisícosemstopätnásť"},
        Case{"anglo-batávsku armádu", "anglo-batávsku armádu"}));

INSTANTIATE_TEST_SUITE_P(
    YearsAndDates, SlovakCases,
    ::testing::Values(
        Case{"v roku 1815", "v roku tisícosemstopätnásť"},
        Case{"v roku 1799 prevzal moc", "v roku tisícsedemstodeväťdesiatdeväť prevzal moc"},
        Case{"v r. 1804", "v roku tisícosemstoštyri"},
        Case{"1. 3. 1815", "prvého marca tisícosemstopätnásť"},
        Case{"dňa 2.12.1805 zvíťazil", "dňa druhého decembra tisícosemstopäť zvíťazil"},
        Case{"od 20. marca do 22. júna", "od dvadsiateho marca do dvadsiateho druhého júna"},
        Case{"1. mája", "prvého mája"}, Case{"k 18. júnu", "k osemnástemu júnu"},
        Case{"18. jún bol horúci", "osemnásty jún bol horúci"},
        Case{"31. decembra 1799", "tridsiateho prvého decembra tisícsedemstodeväťdesiatdeväť"}));

INSTANTIATE_TEST_SUITE_P(
    Ordinals, SlovakCases,
    ::testing::Values(
        Case{"13. pluk", "trinásty pluk"}, Case{"3. armáda ustúpila", "tretia armáda ustúpila"},
        Case{"s 3. armádou", "s treťou armádou"}, Case{"v 2. kapitole", "v druhej kapitole"},
        Case{"4. vydanie", "štvrté vydanie"}, Case{"19. storočie", "devätnáste storočie"},
        Case{"v 19. storočí", "v devätnástom storočí"},
        Case{"do 18. storočia", "do osemnásteho storočia"},
        Case{"v 18. a 19. storočí", "v osemnástom a devätnástom storočí"},
        Case{"21. pluk", "dvadsiaty prvý pluk"}, Case{"100. výročie", "sté výročie"},
        Case{"v 5. ročníku", "v piatom ročníku"},
        Case{"Prišiel ako 5. Potom", "Prišiel ako päť. Potom"}));

INSTANTIATE_TEST_SUITE_P(
    RomanNumerals, SlovakCases,
    ::testing::Values(Case{"Karol IV. vládol", "Karol Štvrtý vládol"},
                      Case{"s Karlom IV. rokoval", "s Karlom Štvrtým rokoval"},
                      Case{"k Ľudovítovi XVI. prišli", "k Ľudovítovi Šestnástemu prišli"},
                      Case{"o Ľudovítovi XIV. písal", "o Ľudovítovi Štrnástom písal"},
                      Case{"od Napoleona III. dostal", "od Napoleona Tretieho dostal"},
                      Case{"Mária Terézia", "Mária Terézia"},
                      Case{"Kataríne II. poslal", "Kataríne Druhej poslal"},
                      Case{"Katarína II. vládla", "Katarína Druhá vládla"},
                      Case{"za vlády Kataríny II. sa", "za vlády Kataríny Druhej sa"},
                      Case{"s Katarínou II. uzavrel", "s Katarínou Druhou uzavrel"},
                      Case{"Fridrich Viliam III. váhal", "Fridrich Viliam Tretí váhal"},
                      Case{"Pius VII. korunoval", "Pius Siedmy korunoval"},
                      Case{"Karol V. zomrel", "Karol Piaty zomrel"},
                      Case{"XIX. storočie", "devätnáste storočie"},
                      Case{"v XVIII. storočí", "v osemnástom storočí"},
                      Case{"V Paríži i V Londýne", "V Paríži i V Londýne"},
                      Case{"prišli V. a I. zbor", "prišli piaty a prvý zbor"},
                      Case{"Kapitola IV. začína", "Kapitola štvrtá začína"}));

INSTANTIATE_TEST_SUITE_P(Times, SlovakCases,
                         ::testing::Values(Case{"o 9.30 h", "o deviatej tridsať"},
                                           Case{"o 9.30 začal útok",
                                                "o deviatej tridsať začal útok"},
                                           Case{"o 14.05 h", "o štrnástej nula päť"},
                                           Case{"do 11.00 h", "do jedenástej"},
                                           Case{"bolo 9:30", "bolo deväť hodín tridsať minút"},
                                           Case{"bolo 2:01", "bolo dve hodiny jedna minúta"}));

INSTANTIATE_TEST_SUITE_P(
    UnitsAndPercent, SlovakCases,
    ::testing::Values(Case{"5 % mužov", "päť percent mužov"}, Case{"1 %", "jedno percento"},
                      Case{"2 % hlasov", "dve percentá hlasov"}, Case{"3 %", "tri percentá"},
                      Case{"21 %", "dvadsaťjeden percent"}, Case{"95%", "deväťdesiatpäť percent"},
                      Case{"3,5 %", "tri celé päť percenta"},
                      Case{"-5 °C", "mínus päť stupňov Celzia"}, Case{"2 °C", "dva stupne Celzia"},
                      Case{"20 km od Paríža", "dvadsať kilometrov od Paríža"},
                      Case{"1 km", "jeden kilometer"}, Case{"3 km", "tri kilometre"},
                      Case{"5 kg", "päť kilogramov"}, Case{"2 h", "dve hodiny"},
                      Case{"50 mil. frankov", "päťdesiat miliónov frankov"},
                      Case{"3 mil. obyvateľov", "tri milióny obyvateľov"},
                      Case{"§ 5", "paragraf päť"}, Case{"kmeň 5", "kmeň päť"}));

INSTANTIATE_TEST_SUITE_P(
    Abbreviations, SlovakCases,
    ::testing::Values(
        Case{"napr. Wellington", "napríklad Wellington"}, Case{"Napr. vojsko", "Napríklad vojsko"},
        Case{"kone, delá atď.", "kone, delá a tak ďalej."},
        Case{"kone atď. Potom", "kone a tak ďalej. Potom"},
        Case{"jazdci a pod.", "jazdci a podobne."}, Case{"t. j. zajtra", "to jest zajtra"},
        Case{"t.j. zajtra", "to jest zajtra"}, Case{"tj. zajtra", "to jest zajtra"},
        Case{"tzv. blokáda", "takzvaná blokáda"}, Case{"tzv. mier", "takzvaný mier"},
        Case{"tzv. kontinentálna blokáda", "takzvaná kontinentálna blokáda"},
        Case{"sv. Helena", "svätá Helena"}, Case{"na ostrov sv. Heleny", "na ostrov svätej Heleny"},
        Case{"sv. Peter", "svätý Peter"}, Case{"gen. Becker", "generál Becker"},
        Case{"č. 5", "číslo päť"}, Case{"str. 12", "strana dvanásť"},
        Case{"Dr. Novák", "doktor Novák"}, Case{"prof. Kováč", "profesor Kováč"},
        Case{"p. Novák", "pán Novák"}, Case{"resp. zajtra", "respektíve zajtra"},
        Case{"cca 300 mužov", "približne tristo mužov"},
        Case{"5 mld. frankov", "päť miliárd frankov"}, Case{"10 tis. mužov", "desať tisíc mužov"},
        Case{"USA", "USA"}, Case{"kmotra", "kmotra"}));

// Sentences written for these tests.
INSTANTIATE_TEST_SUITE_P(
    Sentences, SlovakCases,
    ::testing::Values(Case{"Dňa 18. júna 1815 pri Waterloo padlo 24 000 vojakov.",
                           "Dňa osemnásteho júna tisícosemstopätnásť pri Waterloo padlo "
                           "dvadsaťštyritisíc vojakov."},
                      Case{"Karol X. utiekol a vládol Ľudovít Filip I.",
                           "Karol Desiaty utiekol a vládol Ľudovít Filip Prvý."},
                      Case{"Stratil 30 % mužov, t. j. 12 000.",
                           "Stratil tridsať percent mužov, to jest dvanásťtisíc."},
                      Case{"Po Ľudovítovi XVIII. nastúpil Karol X.",
                           "Po Ľudovítovi Osemnástom nastúpil Karol Desiaty."}));

TEST_F(SlovakNormalizeTest, TokensCoverTextExactly) {
  const std::string text =
      "V roku 1815 (napr. 18. júna) stálo 200\u00A0000 mužov – t. j. 95 % síl; "
      "Ľudovít XVIII. a „sv. Helena“ atď. Koniec";
  CollectingReporter reporter;
  NormalizedParagraph p = normalizer_->Normalize(Paragraph{text, 7}, "x.txt", &reporter);
  EXPECT_EQ(PrintedText(p.tokens), text);
  EXPECT_EQ(p.line, 7);
  for (const Token& t : p.tokens) EXPECT_FALSE(t.text.empty());
}

TEST_F(SlovakNormalizeTest, TokenKinds) {
  CollectingReporter reporter;
  NormalizedParagraph p =
      normalizer_->Normalize(Paragraph{"napr. 95 % ľudí", 1}, "x.txt", &reporter);
  ASSERT_EQ(p.tokens.size(), 5u);
  EXPECT_EQ(p.tokens[0].kind, TokenKind::kAbbreviation);
  EXPECT_EQ(p.tokens[0].text, "napr.");
  EXPECT_EQ(p.tokens[1].kind, TokenKind::kSpace);
  EXPECT_EQ(p.tokens[2].kind, TokenKind::kNumber);
  EXPECT_EQ(p.tokens[2].text, "95 %");
  EXPECT_EQ(p.tokens[4].kind, TokenKind::kWord);
}

TEST_F(SlovakNormalizeTest, UnknownAbbreviationIsReportedNotChanged) {
  CollectingReporter reporter;
  NormalizedParagraph p =
      normalizer_->Normalize(Paragraph{"prišli xyz. vojaci", 12}, "kniha.txt", &reporter);
  EXPECT_EQ(SpokenText(p.tokens), "prišli xyz. vojaci");
  ASSERT_EQ(reporter.diagnostics().size(), 1u);
  EXPECT_EQ(reporter.diagnostics()[0].ToString(), "kniha.txt:12: unknown abbreviation 'xyz.'");
}

TEST_F(SlovakNormalizeTest, KnownAbbreviationIsNotReported) {
  CollectingReporter reporter;
  normalizer_->Normalize(Paragraph{"kone atď. a potom napr. pešiaci", 1}, "kniha.txt", &reporter);
  EXPECT_TRUE(reporter.diagnostics().empty());
}

bool HasDigit(const std::string& s) {
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) return true;
  }
  return false;
}

TEST_F(SlovakNormalizeTest, SampleChapterHasNoDigitsInSpokenForms) {
  auto data = ReadFile(NARRATE_SOURCE_DIR "/books/napoleon/text/004_11f133fc86e9e1cf.txt");
  ASSERT_TRUE(data.ok()) << data.status().message();
  CollectingReporter reporter;
  int line = 0;
  size_t start = 0;
  int paragraphs = 0;
  while (start < data->size()) {
    size_t end = data->find('\n', start);
    if (end == std::string::npos) end = data->size();
    std::string text = data->substr(start, end - start);
    start = end + 1;
    ++line;
    if (text.empty()) continue;
    ++paragraphs;
    NormalizedParagraph p = normalizer_->Normalize(Paragraph{text, line}, "004.txt", &reporter);
    EXPECT_EQ(PrintedText(p.tokens), text) << "line " << line;
    for (const Token& t : p.tokens) {
      EXPECT_FALSE(HasDigit(t.spoken)) << "line " << line << ": " << t.text;
    }
    std::string spoken = SpokenText(p.tokens);
    if (text.find("200 000") != std::string::npos) {
      EXPECT_NE(spoken.find("dvestotisíc Rakúšanov"), std::string::npos);
      EXPECT_NE(spoken.find("stosedemdesiattisíc Rusov"), std::string::npos);
    }
    if (text.find("Napoleona II.") != std::string::npos) {
      EXPECT_NE(spoken.find("Napoleona Druhého. Snemovne"), std::string::npos);
    }
  }
  EXPECT_GE(paragraphs, 4);
  EXPECT_TRUE(reporter.diagnostics().empty());
}

TEST_F(SlovakNormalizeTest, MissingRulesDirIsAnError) {
  auto created = Normalizer::Create({"sk", "/nonexistent/rules", {}, false});
  EXPECT_FALSE(created.ok());
}

}  // namespace
}  // namespace narrate
