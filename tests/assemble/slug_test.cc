// File-name slugs of titles (assemble/outputs.h): Han characters read as
// pinyin from ICU's own Han-Latin rules, other letters folded to ASCII.
#include <gtest/gtest.h>
#include <unicode/translit.h>
#include <unicode/unistr.h>

#include <memory>
#include <string>

#include "assemble/outputs.h"

namespace narrate {
namespace assemble_internal {
namespace {

// The slug of `title` the slow way: ICU's transliterators over the whole
// title, then the same folding to a slug.
std::string IcuSlug(const std::string& title) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::Transliterator> t(
      icu::Transliterator::createInstance("Any-Latin; Latin-ASCII; Lower", UTRANS_FORWARD, status));
  EXPECT_TRUE(U_SUCCESS(status));
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(title);
  t->transliterate(u);
  std::string ascii, slug;
  u.toUTF8String(ascii);
  for (char c : ascii) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      slug += c;
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

TEST(Slug, HanTextReadsAsIcusPinyin) {
  // Titles of Han characters only (spaces and CJK punctuation between them):
  // the same slug as ICU's own Han-Latin transliterator gives, rare
  // characters, readings that depend on the next character (重庆, 藏文) and
  // characters with ü included.
  for (const char* title :
       {"春天的故事", "第一章　风起云涌", "重庆与藏文", "重要的事情", "沈阳，秘鲁", "绿色的女儿",
        "旅途：吕梁山", "鑫淼焱垚", "龘靐齉", "一九四九年的冬天", "说文解字·卷一", "长江黄河"}) {
    EXPECT_EQ(Slug(title), IcuSlug(title)) << title;
  }
  EXPECT_EQ(Slug("重庆"), "chong-qing");
  EXPECT_EQ(Slug("重要"), "zhong-yao");
  EXPECT_EQ(Slug("绿色"), "lu-se");
}

TEST(Slug, LatinLettersLoseTheirAccents) {
  EXPECT_EQ(Slug("Druhá abdikácia"), "druha-abdikacia");
  EXPECT_EQ(Slug("Ľudovít Štúr: Reč o národe"), "ludovit-stur-rec-o-narode");
  EXPECT_EQ(Slug("ＦＵＬＬ　ｗｉｄｔｈ ２０２４"), "full-width-2024");
  EXPECT_EQ(Slug("Kapitola 12 – Koniec"), "kapitola-12-koniec");
}

TEST(Slug, EachHanSyllableIsAWordNextToOtherText) {
  EXPECT_EQ(Slug("第3章 巴黎"), "di-3-zhang-ba-li");
  EXPECT_EQ(Slug("巴黎ABC"), "ba-li-abc");
  EXPECT_EQ(Slug("《红楼梦》第一回"), "hong-lou-meng-di-yi-hui");
}

TEST(Slug, LettersWithoutAnAsciiFormGoToIcu) {
  EXPECT_EQ(Slug("Straße"), "strasse");
  EXPECT_EQ(Slug("Москва"), "moskva");
  EXPECT_EQ(Slug("Ærø"), "aero");
  EXPECT_EQ(Slug("北京 Москва"), "bei-jing-moskva");
}

TEST(Slug, NothingToReadIsAChapter) {
  EXPECT_EQ(Slug("!!!"), "chapter");
  EXPECT_EQ(Slug(""), "chapter");
  EXPECT_EQ(Slug("《》"), "chapter");
}

TEST(Slug, AtMostFortyCharacters) {
  const std::string slug = Slug("中华人民共和国国家标准化管理委员会关于发布国家标准的公告");
  EXPECT_LE(slug.size(), 40u);
  EXPECT_EQ(slug.rfind("zhong-hua-ren-min-gong-he-guo", 0), 0u) << slug;
  EXPECT_NE(slug.back(), '-');
}

}  // namespace
}  // namespace assemble_internal
}  // namespace narrate
