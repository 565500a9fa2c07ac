import { createMultibyteEncoder } from "@exodus/bytes/multi-byte.js";
import { createSinglebyteEncoder } from "@exodus/bytes/single-byte.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps } from "../../db/schema";
import { startFixtureSite } from "../../../tests/support/fixture-site";
import { apiCaller, signInAs, startTestHost } from "../../../tests/support/test-host";
import { indexPages } from "../../../tests/support/index-pages";

/** Text as the Encoding Standard writes it in a legacy encoding: the bytes a page in that charset carries. */
const encoded = (encoding: string, text: string) => [
  ...(encoding.startsWith("windows-") ? createSinglebyteEncoder(encoding) : createMultibyteEncoder(encoding))(text),
];

/** What a page's head often holds before its charset: more than the standard's first 1,024 bytes of it. */
const PRELOADS = Array.from(
  { length: 30 },
  (_, i) => `<link rel="preload" href="/assets/font-${i}.woff2" as="font" type="font/woff2" crossorigin>`,
).join("\n");

const JAPANESE = "留学生の入学願書の締め切りは十二月一日で、授業料は年間五十三万五千八百円";
const CHINESE = "本校国际学生的学费为每学年八万八千元人民币，奖学金申请截止日期为五月三十一日";
const KOREAN = "기숙사 비용은 한 학기에 180만원입니다. 기숙사 신청 마감일은 8월 15일입니다.";
const GERMAN = "Die Miete im Studentenwohnheim beträgt 420 € pro Monat – Nebenkosten inklusive.";

/**
 * Pages in the charsets the web still serves, each indexed through the pipeline and read back as
 * the passages it stored: the words must come out as written, never as replacement characters.
 * The bytes are each word as that encoding writes it.
 */
const PAGES: { path: string; type: string; head?: string; bom?: Buffer; word: string; bytes: number[] }[] = [
  {
    path: "/cp1252",
    type: "text/html; charset=windows-1252",
    word: "café – naïve",
    bytes: [0x63, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65],
  },
  {
    path: "/latin2",
    type: "text/html",
    head: `<meta charset="iso-8859-2">`,
    word: "Łódź",
    bytes: [0xa3, 0xf3, 0x64, 0xbc],
  },
  {
    path: "/sjis",
    type: "text/html",
    head: `<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`,
    word: "日本語",
    bytes: [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea],
  },
  { path: "/euckr", type: "text/html; charset=EUC-KR", word: "한국어", bytes: [0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee] },
  { path: "/gb18030", type: "text/html; charset=gb18030", word: "中文", bytes: [0xd6, 0xd0, 0xce, 0xc4] },
  // The header wins over a <meta> that disagrees with it (the page was re-encoded by its server).
  {
    path: "/disagrees",
    type: "text/html; charset=windows-1252",
    head: `<meta charset="utf-8">`,
    word: "café",
    bytes: [0x63, 0x61, 0x66, 0xe9],
  },
  // Nothing declared: a byte order mark says UTF-8, and so do bytes that are valid UTF-8.
  {
    path: "/bom",
    type: "text/html",
    bom: Buffer.from([0xef, 0xbb, 0xbf]),
    word: "naïve",
    bytes: [...Buffer.from("naïve")],
  },
  { path: "/undeclared-utf8", type: "text/html", word: "Ærøskøbing", bytes: [...Buffer.from("Ærøskøbing")] },
  // Nothing declared and not UTF-8: read as windows-1252, the web's default for Latin text.
  { path: "/undeclared-latin", type: "text/html", word: "déjà vu", bytes: [0x64, 0xe9, 0x6a, 0xe0, 0x20, 0x76, 0x75] },
  // A charset declared after the first 1,024 bytes of the head, which browsers still honour. A
  // word this short would be guessed as windows-1252: only the declaration reads it right.
  {
    path: "/late-latin2",
    type: "text/html",
    head: `${PRELOADS}\n<meta charset="iso-8859-2">`,
    word: "Łódź",
    bytes: [0xa3, 0xf3, 0x64, 0xbc],
  },
  ...(
    [
      ["Shift_JIS", "shift_jis", JAPANESE],
      ["GBK", "gbk", CHINESE],
      ["EUC-KR", "euc-kr", KOREAN],
      ["windows-1252", "windows-1252", GERMAN],
    ] as const
  ).flatMap(([label, encoding, word]) => [
    {
      path: `/late-${encoding}`,
      type: "text/html",
      head: `${PRELOADS}\n<meta http-equiv="Content-Type" content="text/html; charset=${label}">`,
      word,
      bytes: encoded(encoding, word),
    },
    // Declared nowhere: the encoding is told from the bytes, as browsers tell it.
    { path: `/undeclared-${encoding}`, type: "text/html", word, bytes: encoded(encoding, word) },
  ]),
];

/** A page of plain ASCII around the word, so the only bytes outside ASCII are the word's. */
function pageOf({ head = "", bom, bytes }: (typeof PAGES)[number]) {
  const ascii = (text: string) => Buffer.from(text, "latin1");
  return Buffer.concat([
    bom ?? Buffer.alloc(0),
    ascii(
      `<!doctype html><html><head>${head}<title>Charsets</title></head><body><main><h1>Words as written</h1><p>The word of this page is `,
    ),
    Buffer.from(bytes),
    ascii(
      `, written in the page's own encoding. Every visitor who asks about it should read it exactly as the page's authors wrote it, `,
    ),
    ascii(
      `with each of its letters intact and no replacement characters anywhere in the stored passage.</p></main></body></html>`,
    ),
  ]);
}

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let websiteId: number;

beforeAll(async () => {
  site = await startFixtureSite();
  for (const page of PAGES) site.setRaw(page.path, page.type, pageOf(page));
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 2000 });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  websiteId = await indexPages(
    host,
    token,
    appId,
    PAGES.map((page) => `${site.base}${page.path}`),
  );
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const storedText = async (path: string) =>
  (
    (
      await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/fetch_cached_chunks`, {
        token,
        body: { url: `${site.base}${path}` },
      })
    ).body.chunks as { text: string }[]
  )
    .map((chunk) => chunk.text)
    .join(" ");

describe("pages in every charset", () => {
  // indexPages fails the set-up unless every page came out indexed.
  it.each(PAGES.map((page) => [page.path, page] as const))(
    "%s is stored as its authors wrote it",
    async (path, page) => {
      const text = await storedText(path);
      expect(text).toContain(`The word of this page is ${page.word},`);
      expect(text).not.toContain("\uFFFD");
    },
  );
});
