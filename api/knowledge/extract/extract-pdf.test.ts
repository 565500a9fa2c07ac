import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RIGHT_TO_LEFT_DOCUMENTS } from "../../../tests/fixtures/right-to-left/texts";
import { JAPANESE_MINCHO, KOREAN_MYEONGJO, makePdf, SIMPLIFIED_CHINESE_SONG } from "../../../tests/support/pdf";
import { extractPdf, withoutRunningLines } from "./extract-pdf";

describe("a PDF's running heads and feet", () => {
  it("leaves out a line that opens or ends many pages in the same words, figures aside, and page numbers alone on a line", () => {
    const body = [
      ["Rooms are let by the term.", "Halls close in June."],
      ["Meals are served from 7 am.", "Vegetarian dishes daily."],
      ["Laundry rooms are in each basement.", "Bring your own detergent."],
      ["Quiet hours start at 11 pm.", "Guests leave by midnight."],
    ];
    const pages = body.map((lines, at) => [`Chapter ${at + 1}: Living on campus ${at + 3}`, ...lines, `${at + 3}`]);
    expect(withoutRunningLines(pages)).toEqual(body);
    // Roman and dashed page numbers; a line in the middle of a page stays whatever it says.
    expect(
      withoutRunningLines([
        ["xiv", "Preface", "12", "The end."],
        ["- 3 -", "Text", "More text", "Last line"],
        ["Civil", "Rights", "law", "xl"],
      ]),
    ).toEqual([
      ["Preface", "12", "The end."],
      ["Text", "More text", "Last line"],
      ["Civil", "Rights", "law"],
    ]);
  });

  it("keeps what repeats on few pages, and pages of one or two lines whole", () => {
    const pages = [
      ["Contents", "Fees", "Housing"],
      ["Fees are due in March.", "Late fees apply.", "See the bursar."],
      ["Housing opens in August.", "Bring bedding.", "Contents"],
    ];
    expect(withoutRunningLines(pages)).toEqual(pages);
    const short = [1, 2, 3, 4].map((n) => [`Handbook ${n}`, "1"]);
    expect(withoutRunningLines(short)).toEqual(short);
  });

  it("reads a document whose every page carries its title and a page number as the pages' own text alone", async () => {
    const pages = [
      "Tuition is due on the first of March.",
      "Residence halls open in August.",
      "Parking permits cost $140 a term.",
      "The library opens at 7 am.",
    ].map((line, at) => [
      "Northfield Student Handbook 2026",
      line,
      `A second line of page ${at + 1} says more.`,
      `Page ${at + 1} of 4`,
    ]);
    const { text } = await extractPdf(makePdf(pages, "Student Handbook"), "handbook.pdf");
    expect(text).toContain("Parking permits cost $140 a term.");
    expect(text).not.toContain("Northfield Student Handbook 2026");
    expect(text).not.toMatch(/Page \d of 4/);
  });
});

describe("a PDF's lines joined into paragraphs", () => {
  it("joins a Chinese or Japanese line to the next with no space, and Korean, Latin or mixed lines with one", async () => {
    const chinese = await extractPdf(
      makePdf(
        [
          [
            "申请人须在每年四月十五日前向国际交流处提交申请材",
            "料，研究生公寓每年住宿费为六千五百元，",
            "入住手续请访问 Student Portal",
            "办理。",
          ],
        ],
        { cjkFont: SIMPLIFIED_CHINESE_SONG },
      ),
      "zh.pdf",
    );
    expect(chinese.text).toBe(
      "申请人须在每年四月十五日前向国际交流处提交申请材料，研究生公寓每年住宿费为六千五百元，入住手续请访问 Student Portal 办理。",
    );
    const japanese = await extractPdf(
      makePdf(
        [["成績優秀な留学生を対象に給付型奨学金を支給", "しています。申請書は国際", "センターで配布しています。"]],
        {
          cjkFont: JAPANESE_MINCHO,
        },
      ),
      "ja.pdf",
    );
    expect(japanese.text).toBe(
      "成績優秀な留学生を対象に給付型奨学金を支給しています。申請書は国際センターで配布しています。",
    );
    const korean = await extractPdf(
      makePdf([["기숙사 비용은 한 학기에 180만원이며 기숙사", "신청 마감일은 8월 15일입니다."]], {
        cjkFont: KOREAN_MYEONGJO,
      }),
      "ko.pdf",
    );
    expect(korean.text).toBe("기숙사 비용은 한 학기에 180만원이며 기숙사 신청 마감일은 8월 15일입니다.");
  });
});

describe("right-to-left PDFs", () => {
  // Printed by Chromium, which draws every glyph on its own, left to right, as Arabic's contextual
  // shapes: read as drawn, the text came out as "ﻦﻜﺴﻟا ﻞﻴﻟد" and Hebrew lines with their pieces swapped.
  it.each(Object.entries(RIGHT_TO_LEFT_DOCUMENTS))(
    "reads %s in logical order, as its letters, numbers, brackets and Latin names were written",
    async (file, { title, body }) => {
      const bytes = readFileSync(path.resolve("tests/fixtures/right-to-left", file));
      const pdf = await extractPdf(new Uint8Array(bytes), file);
      expect(pdf.title).toBe(title);
      expect(pdf.text).toBe(`${title} ${body}`);
    },
  );
});
