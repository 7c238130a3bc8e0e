// Chinese years, dates, times, ordinals, percentages, ranges and fractions.
// Expected outputs are what a careful narrator says.
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

class ZhDateTest : public ::testing::TestWithParam<Case> {};

TEST_P(ZhDateTest, Spoken) { EXPECT_EQ(Say(GetParam().in), GetParam().spoken) << GetParam().in; }

const Case kYears[] = {
    {"1814年", "一八一四年"},
    {"2000年", "二〇〇〇年"},
    {"20年来我们", "二十年来我们"},
    {"为期20年的条约", "为期二十年的条约"},
    {"18年来", "十八年来"},
    {"公元前202年", "公元前二〇二年"},
    {"05年", "〇五年"},
    {"1000年来", "一千年来"},
    {"1960年代", "一九六〇年代"},
};
INSTANTIATE_TEST_SUITE_P(Year, ZhDateTest, ::testing::ValuesIn(kYears));

const Case kDates[] = {
    {"消息于3月27日传给拿破仑", "消息于三月二十七日传给拿破仑"},
    {"4月12日至13日夜", "四月十二日至十三日夜"},
    {"1815年6月18日", "一八一五年六月十八日"},
    {"202年3月", "二〇二年三月"},
    {"2019/2/10", "二〇一九年二月十日"},
    {"2019-02-10", "二〇一九年二月十日"},
    {"12月25日", "十二月二十五日"},
    {"8号", "八号"},
    {"20日，他", "二十日，他"},
    {"３月１日，", "三月一日，"},
    {"10月", "十月"},
};
INSTANTIATE_TEST_SUITE_P(Date, ZhDateTest, ::testing::ValuesIn(kDates));

const Case kTimes[] = {
    {"下午5时", "下午五时"}, {"9点30分", "九点三十分"}, {"9:30", "九点三十分"},
    {"9:05", "九点零五分"},  {"9:00", "九点"},          {"14:30:15", "十四点三十分十五秒"},
    {"2:30", "两点三十分"},  {"2点", "两点"},           {"4小时", "四小时"},
    {"4个钟头", "四个钟头"}, {"比分3:2", "比分三:二"},
};
INSTANTIATE_TEST_SUITE_P(Time, ZhDateTest, ::testing::ValuesIn(kTimes));

const Case kOrdinals[] = {
    {"第5", "第五"},  {"第21", "第二十一"},    {"第2名", "第二名"},
    {"第10", "第十"}, {"第100个", "第一百个"},
};
INSTANTIATE_TEST_SUITE_P(Ordinal, ZhDateTest, ::testing::ValuesIn(kOrdinals));

const Case kPercentages[] = {
    {"95%", "百分之九十五"}, {"3.5%", "百分之三点五"},       {"-2%", "负百分之二"},
    {"5‰", "千分之五"},      {"100%的人", "百分之一百的人"}, {"增长了12％", "增长了百分之十二"},
};
INSTANTIATE_TEST_SUITE_P(Percentage, ZhDateTest, ::testing::ValuesIn(kPercentages));

const Case kRanges[] = {
    {"3-5天", "三到五天"},          {"3～5天", "三到五天"},
    {"3~5天", "三到五天"},          {"1814-1815年", "一八一四到一八一五年"},
    {"2-3个", "两到三个"},          {"10%-20%", "百分之十到百分之二十"},
    {"3-5%", "百分之三到百分之五"},
};
INSTANTIATE_TEST_SUITE_P(Range, ZhDateTest, ::testing::ValuesIn(kRanges));

const Case kFractions[] = {
    {"1/3", "三分之一"},       {"2/3的人", "三分之二的人"},   {"-1/3", "负三分之一"},
    {"1/2kg", "二分之一千克"}, {"5又2分之1", "五又二分之一"}, {"12/2/2", "十二/二/二"},
};
INSTANTIATE_TEST_SUITE_P(Fraction, ZhDateTest, ::testing::ValuesIn(kFractions));

}  // namespace
}  // namespace narrate
