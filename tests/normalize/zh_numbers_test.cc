// Chinese number readings: cardinals, decimals, negatives, 两, digit strings,
// unit symbols. Expected outputs are what a careful narrator says.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "normalize/normalize.h"
#include "zh_test_util.h"

namespace narrate {
namespace {

using testing_util::ZhOptions;

using testing_util::Case;
using testing_util::Say;

class ZhNumberTest : public ::testing::TestWithParam<Case> {};

TEST_P(ZhNumberTest, Spoken) { EXPECT_EQ(Say(GetParam().in), GetParam().spoken) << GetParam().in; }

const Case kCardinals[] = {
    {"他在距巴黎150英里的圣迪济耶", "他在距巴黎一百五十英里的圣迪济耶"},
    {"400名侍卫", "四百名侍卫"},
    {"1,050人", "一千零五十人"},
    {"有3,500,000人", "有三百五十万人"},
    {"17000人", "一万七千人"},
    {"可获得200万租税", "可获得二百万租税"},
    {"20万联军", "二十万联军"},
    {"10", "十"},
    {"12", "十二"},
    {"110", "一百一十"},
    {"100000", "十万"},
    {"100010", "十万零一十"},
    {"1000001", "一百万零一"},
    {"10001000", "一千万一千"},
    {"101111111", "一亿零一百一十一万一千一百一十一"},
    {"0", "零"},
    {"5万名军士", "五万名军士"},
    {"1,2,3", "一,二,三"},
    {"他有25本书", "他有二十五本书"},
};
INSTANTIATE_TEST_SUITE_P(Cardinal, ZhNumberTest, ::testing::ValuesIn(kCardinals));

const Case kDecimals[] = {
    {"1.1万名兵士", "一点一万名兵士"},
    {"3.14", "三点一四"},
    {"0.5", "零点五"},
    {"5.05", "五点零五"},
    {"5.0", "五点零"},
    {"2.5亿", "二点五亿"},
    {"走了1.5公里", "走了一点五公里"},
    {"-5", "负五"},
    {"气温-3.5度", "气温负三点五度"},
    {"±2", "正负二"},
};
INSTANTIATE_TEST_SUITE_P(Decimal, ZhNumberTest, ::testing::ValuesIn(kDecimals));

const Case kLiang[] = {
    {"2个", "两个"},    {"2名士兵", "两名士兵"}, {"2天后", "两天后"}, {"2小时", "两小时"},
    {"2年", "两年"},    {"200", "二百"},         {"2", "二"},         {"22个", "二十二个"},
    {"12个", "十二个"}, {"2000人", "两千人"},    {"2万人", "两万人"}, {"2.5个", "二点五个"},
    {"2kg", "两千克"},  {"2月", "二月"},         {"2日", "二日"},
};
INSTANTIATE_TEST_SUITE_P(Liang, ZhNumberTest, ::testing::ValuesIn(kLiang));

const Case kDigitStrings[] = {
    {"电话：01065529988", "电话：零一零六五五二九九八八"},
    {"手机13912345678", "手机一三九一二三四五六七八"},
    {"13912345678", "一三九一二三四五六七八"},
    {"特工007", "特工零零七"},
    {"编号 3021", "编号 三零二一"},
    {"电话：010-65529988", "电话：零一零 六五五二九九八八"},
};
INSTANTIATE_TEST_SUITE_P(DigitString, ZhNumberTest, ::testing::ValuesIn(kDigitStrings));

const Case kUnits[] = {
    {"25kg", "二十五千克"},         {"38°C", "三十八摄氏度"},
    {"38℃", "三十八摄氏度"},        {"120m²", "一百二十平方米"},
    {"100km", "一百公里"},          {"5m", "五米"},
    {"5 miles", "五 miles"},        {"21响礼炮", "二十一响礼炮"},
    {"１７０００人", "一万七千人"}, {"提供了５００万英镑", "提供了五百万英镑"},
};
INSTANTIATE_TEST_SUITE_P(Unit, ZhNumberTest, ::testing::ValuesIn(kUnits));

}  // namespace
}  // namespace narrate
