/**
 * Sites in Chinese, Japanese and Thai, answered through the widget as visitors ask. These scripts
 * put no spaces between words, so a passage and a question meet only once both are cut into words
 * the same way (api/knowledge/words/lexemes.ts); before that, every such question got the fallback.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  askWidget,
  expectAnsweredFrom,
  expectFallback,
  indexedSite,
  pageIn,
  visitPage,
} from "../../tests/support/widget-chat";

let site: Awaited<ReturnType<typeof indexedSite>>;
beforeAll(async () => {
  site = await indexedSite([
    {
      path: "/ja/admissions",
      html: pageIn("ja", "入学案内", [
        "出願の締め切りは毎年1月15日です。出願書類はすべてオンラインで提出してください。推薦状は二通必要です。",
        "授業料は1学期あたり62万円です。奨学金を希望する学生は、12月1日までに申請してください。",
        "キャンパスは横浜市の港の近くにあり、最寄り駅から徒歩10分です。学生寮は大学の北側にあります。",
      ]),
    },
    {
      path: "/zh/library",
      html: pageIn("zh", "图书馆与学费", [
        "本校的学费为每学期一万二千元。申请奖学金的学生须在十二月一日前提交申请。",
        "图书馆每天早上八点开放，晚上十点关闭。周末只开放到下午五点。",
        "新生宿舍位于校园东侧，每个房间住两名学生。",
      ]),
    },
    {
      path: "/th/fees",
      html: pageIn("th", "ค่าเล่าเรียน", [
        "ค่าเล่าเรียนภาคการศึกษาละ 45,000 บาท สำหรับนักศึกษาระดับปริญญาตรี",
        "ห้องสมุดเปิดทุกวันตั้งแต่เวลา 8.00 น. ถึง 20.00 น.",
      ]),
    },
    visitPage,
  ]);
}, 60_000);
afterAll(async () => site?.close());

it.each([
  ["授業料はいくらですか？", "62万円", "/ja/admissions"],
  ["出願の締め切りはいつですか？", "1月15日", "/ja/admissions"],
  ["学生寮はどこにありますか？", "北側", "/ja/admissions"],
  ["学费是多少？", "一万二千元", "/zh/library"],
  ["图书馆几点开放？", "八点开放", "/zh/library"],
  ["新生宿舍在哪里？", "校园东侧", "/zh/library"],
  ["ค่าเล่าเรียนเท่าไหร่", "45,000 บาท", "/th/fees"],
  ["ห้องสมุดเปิดกี่โมง", "8.00 น.", "/th/fees"],
  ["When do campus tours leave?", "10 a.m.", "/en/visit"],
])("answers %s from its page", (question, answer, path) => expectAnsweredFrom(site, question, answer, path));

it("quotes Chinese and Japanese sentences as written, with no space between them", async () => {
  const asked = await askWidget(site, "授業料はいくらですか？");
  expect(asked.text).toMatch(/^授業料は1学期あたり62万円です。/u);
  expect(asked.text).not.toMatch(/。 /u);
});

it.each(["火星の天気はどうですか？", "股票价格是多少？"])(
  "gives the fallback for %s, which no page is about",
  (question) => expectFallback(site, question),
);
