/**
 * A site in Korean, answered through the widget as visitors ask. Korean writes spaces between
 * phrases, not words: a noun carries its particle ("등록금은", tuition + topic marker) and a verb its
 * ending, and compounds are written as one ("중앙도서관", central library). A question meets its page
 * only once both are cut into the same pieces (api/knowledge/words/lexemes.ts).
 */
import { afterAll, beforeAll, it } from "vitest";
import { expectAnsweredFrom, expectFallback, indexedSite, pageIn, visitPage } from "../../tests/support/widget-chat";

let site: Awaited<ReturnType<typeof indexedSite>>;
beforeAll(async () => {
  site = await indexedSite([
    {
      path: "/ko/admissions",
      html: pageIn("ko", "입학 안내", [
        "학부 과정의 등록금은 한 학기에 450만 원입니다. 장학금은 성적에 따라 지급됩니다.",
        "원서 접수는 매년 9월 10일에 마감됩니다. 모든 서류는 온라인으로 제출해야 합니다.",
        "기숙사는 캠퍼스 북쪽에 있으며 방 하나를 학생 두 명이 함께 씁니다.",
      ]),
    },
    {
      path: "/ko/library",
      html: pageIn("ko", "도서관 이용", [
        "중앙도서관은 평일 오전 9시부터 오후 10시까지 운영합니다.",
        "학생은 한 번에 최대 다섯 권의 책을 2주 동안 빌릴 수 있습니다.",
      ]),
    },
    visitPage,
  ]);
}, 60_000);
afterAll(async () => site?.close());

it.each([
  ["등록금이 얼마예요?", "450만 원", "/ko/admissions"],
  ["원서 마감일이 언제인가요?", "9월 10일", "/ko/admissions"],
  ["기숙사가 어디에 있어요?", "캠퍼스 북쪽", "/ko/admissions"],
  ["도서관 운영 시간을 알려주세요", "오전 9시", "/ko/library"],
  ["책은 몇 권까지 빌릴 수 있나요?", "다섯 권", "/ko/library"],
  ["When do campus tours leave?", "10 a.m.", "/en/visit"],
])("answers %s from its page", (question, answer, path) => expectAnsweredFrom(site, question, answer, path));

it.each(["화성의 날씨는 어떤가요?", "주식 가격이 얼마예요?"])(
  "gives the fallback for %s, which no page is about",
  (question) => expectFallback(site, question),
);
