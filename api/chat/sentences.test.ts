import { describe, expect, it } from "vitest";
import {
  answerKindOf,
  attributesAskedBy,
  definedSubjectOf,
  holdsAnswerOfKind,
  wantsSeveralSentences,
} from "./answer-kind";
import { composeAnswer } from "./compose";
import { wordCountOf } from "../knowledge/words/lexemes";
import { quoteOf, passageSentencesOf } from "./sentences";
import { searchHit } from "../../tests/support/search-hit";

const texts = (text: string) => passageSentencesOf(text).map((s) => s.text);

describe("passageSentencesOf", () => {
  it("ends sentences at full stops, not at titles, initials or abbreviations", () => {
    expect(
      texts(
        "The team was led by Dr. Shadlen of Columbia University. Michael B. de Jong wrote the draft, e.g. its section 4. It passed.",
      ),
    ).toEqual([
      "The team was led by Dr. Shadlen of Columbia University.",
      "Michael B. de Jong wrote the draft, e.g. its section 4.",
      "It passed.",
    ]);
    expect(texts("Version 1.6.0 costs $12.50 in the U.S. market. Done!")).toEqual([
      "Version 1.6.0 costs $12.50 in the U.S. market.",
      "Done!",
    ]);
  });

  it("makes bullet items sentences of their own", () => {
    expect(
      texts("The main features are: • DER encoding support. • No limits for INTEGER values • Thread-safety."),
    ).toEqual(["The main features are:", "DER encoding support.", "No limits for INTEGER values", "Thread-safety."]);
  });

  it("makes each line stating one fact a sentence of its own, and keeps other lines together", () => {
    expect(texts("Quick facts\nCredits: 120\nLength: 4 years\nCampus: Hall 7, 100 College Road")).toEqual([
      "Quick facts",
      "Credits: 120",
      "Length: 4 years",
      "Campus: Hall 7, 100 College Road",
    ]);
    expect(texts("At a glance\nDuration | 4 years\nTuition | $9,800 per semester")).toEqual([
      "At a glance",
      "Duration | 4 years",
      "Tuition | $9,800 per semester",
    ]);
    // An address's lines, and a heading's line over its sentence, stay one sentence.
    expect(texts("Office of Admissions\nHall 2, 100 College Road\nNorthfield")).toEqual([
      "Office of Admissions Hall 2, 100 College Road Northfield",
    ]);
    expect(texts("Deadlines\nEarly action closes on November 1.")).toEqual([
      "Deadlines Early action closes on November 1.",
    ]);
    // A longer opening before a colon is a sentence's, not a label.
    expect(texts("Intro\nfield id of the Group type: Example.Group.id\nmore")).toEqual([
      "Intro field id of the Group type: Example.Group.id more",
    ]);
    // A fact's line is whole without a full stop; another last line is cut.
    expect(passageSentencesOf("Tours leave daily.\nLength: 90 minutes").at(-1)).toMatchObject({
      text: "Length: 90 minutes",
      cutAfter: false,
    });
  });

  it("marks a sentence the passage cut at either end: its end only where chunking cuts, in a long sentence", () => {
    const long = `Parking is free ${"for every visitor who comes by bus, by train or on foot ".repeat(12)}and for every S`;
    const [first, , last] = passageSentencesOf(`system and every Saturday. Tours leave at 10 am. ${long}`);
    expect(first).toMatchObject({ text: "system and every Saturday.", cutBefore: true, cutAfter: false });
    expect(last).toMatchObject({ text: long, cutBefore: false, cutAfter: true });
    // A short last line without a full stop is whole, but for a PDF's page, which may end inside a sentence.
    expect(passageSentencesOf("Tours leave daily.\nOpen Monday to Friday, 8:30 am to 5 pm").at(-1)).toMatchObject({
      cutAfter: false,
    });
    expect(passageSentencesOf("Tours leave daily.\nThe museum opens on Monday and", true).at(-1)).toMatchObject({
      cutAfter: true,
    });
  });

  it("ends Chinese and Japanese sentences at 。！？ with no space after, and a Thai one where its line ends", () => {
    expect(
      passageSentencesOf("图书馆每天早上八点开放。周末只开放到下午五点！新生宿舍位于校园东侧。").map((s) => s.text),
    ).toEqual(["图书馆每天早上八点开放。", "周末只开放到下午五点！", "新生宿舍位于校园东侧。"]);
    expect(passageSentencesOf("「授業料は62万円です。」奨学金は12月1日まで").map((s) => s.text)).toEqual([
      "「授業料は62万円です。」",
      "奨学金は12月1日まで",
    ]);
    expect(passageSentencesOf("ค่าเล่าเรียนภาคการศึกษาละ 45,000 บาท\nห้องสมุดเปิดทุกวัน").map((s) => s.text)).toEqual([
      "ค่าเล่าเรียนภาคการศึกษาละ 45,000 บาท",
      "ห้องสมุดเปิดทุกวัน",
    ]);
    // Scripts without capitals end a sentence at their full stop too: Korean, Arabic (؟), Hindi (।).
    expect(
      passageSentencesOf("등록금은 한 학기에 620만 원입니다. 기숙사는 캠퍼스 북쪽에 있습니다.").map((s) => s.text),
    ).toEqual(["등록금은 한 학기에 620만 원입니다.", "기숙사는 캠퍼스 북쪽에 있습니다."]);
    expect(passageSentencesOf("هل الجامعة مفتوحة؟ نعم، كل يوم.").map((s) => s.text)).toEqual([
      "هل الجامعة مفتوحة؟",
      "نعم، كل يوم.",
    ]);
    expect(passageSentencesOf("पुस्तकालय सुबह खुलता है। शुल्क ऑनलाइन जमा करें।").map((s) => s.text)).toEqual([
      "पुस्तकालय सुबह खुलता है।",
      "शुल्क ऑनलाइन जमा करें।",
    ]);
    // An abbreviation before a lower-case word still does not end a sentence.
    expect(passageSentencesOf("Bring an ID, e.g. a passport. Then sign in.").map((s) => s.text)).toEqual([
      "Bring an ID, e.g. a passport.",
      "Then sign in.",
    ]);
    // Lines of a spaced script still run together until a full stop.
    expect(passageSentencesOf("Admissions\nApply by May 1.").map((s) => s.text)).toEqual([
      "Admissions Apply by May 1.",
    ]);
  });
});

describe("wordCountOf", () => {
  it("counts words between spaces, and the words of a script written without them", () => {
    expect(wordCountOf("Tours leave at 10 am.")).toBe(5);
    expect(wordCountOf("授業料は1学期あたり62万円です。")).toBeGreaterThanOrEqual(8);
    expect(wordCountOf("ห้องสมุดเปิดทุกวันตั้งแต่เวลา 8.00 น.")).toBeGreaterThanOrEqual(7);
  });
});

describe("quoteOf", () => {
  const weight = (word: string) => (/^(oasis|cloche|inch)/i.test(word) ? 1 : 0);

  it("quotes a short sentence whole, and marks where the passage cut it", () => {
    expect(quoteOf({ text: "Tours leave at 10 am.", cutBefore: false, cutAfter: false }, 40, weight)).toBe(
      "Tours leave at 10 am.",
    );
    expect(quoteOf({ text: "and tours leave at 10 am", cutBefore: true, cutAfter: true }, 40, weight)).toBe(
      "…and tours leave at 10 am…",
    );
  });

  it("quotes a long sentence around its telling words, whole words only, with an ellipsis at each cut", () => {
    const long = `${"Ruler Spoon Moss Tweezers ".repeat(10)}Step 1 Measure the cloche and cut the foam oasis about 3/4 inch smaller. ${"Place the foam in water ".repeat(10)}`;
    const quote = quoteOf({ text: long.trim(), cutBefore: false, cutAfter: false }, 20, weight);
    expect(quote).toMatch(/^…/);
    expect(quote).toMatch(/…$/);
    expect(quote).toContain("cut the foam oasis about 3/4 inch smaller.");
    expect(quote.replace(/…/g, "").split(" ")).toHaveLength(20);
    expect(long).toContain(quote.replace(/…/g, ""));
  });

  it("cuts a long sentence written without spaces between its words, and joins them as written", () => {
    const long = `${"学生们在图书馆里安静地读书，".repeat(12)}本校的学费为每学期一万二千元，${"老师们在办公室里讨论课程，".repeat(12)}`;
    const quote = quoteOf({ text: long, cutBefore: false, cutAfter: false }, 20, (word) => (word === "学费" ? 1 : 0));
    expect(quote).toMatch(/^…[^ ]+…$/u);
    expect(quote).toContain("学费为每学期一万二千元");
    expect(long).toContain(quote.replace(/…/g, ""));
  });
});

describe("answer kinds", () => {
  it("reads the kind of answer a question asks for", () => {
    expect(answerKindOf("Who led the research?")).toBe("person");
    expect(answerKindOf("When is the early action deadline?")).toBe("date");
    expect(answerKindOf("How many students does the program admit?")).toBe("number");
    expect(answerKindOf("How much is the application fee?")).toBe("amount");
    expect(answerKindOf("How much does it cost?")).toBe("amount");
    expect(answerKindOf("How much land does the campus cover?")).toBe("number");
    expect(answerKindOf("Where do guided tours leave from?")).toBe("place");
    expect(answerKindOf("What does the Awesome Bar do?")).toBe("any");
    expect(answerKindOf("What is the phone number of the registrar?")).toBe("phone");
    expect(answerKindOf("Which number do I call for housing?")).toBe("phone");
    expect(answerKindOf("What is white-box monitoring?")).toBe("definition");
    expect(answerKindOf("What does FAFSA stand for?")).toBe("definition");
    // Something about a longer subject, not what it is.
    expect(answerKindOf("What was the English title of the author's first book?")).toBe("any");
  });

  it("tells a figure from a name holding a digit, and a sentence that defines the subject", () => {
    expect(holdsAnswerOfKind("Compile it with -O3 for speed.", "number", new Set())).toBe(false);
    expect(holdsAnswerOfKind("The file is 87 bytes.", "number", new Set())).toBe(true);
    // An amount of money: a figure with its currency, a currency named, or "free"; not any figure.
    expect(holdsAnswerOfKind("Tuition is $12,400 per semester.", "amount", new Set())).toBe(true);
    expect(holdsAnswerOfKind("The fee is 40 euros.", "amount", new Set())).toBe(true);
    expect(holdsAnswerOfKind("Entry to the gallery is free.", "amount", new Set())).toBe(true);
    expect(holdsAnswerOfKind("The four-year program admits 120 students.", "amount", new Set())).toBe(false);
    const subject = definedSubjectOf("What is white-box monitoring?");
    expect(subject).toEqual(["white", "box", "monitoring"]);
    expect(
      holdsAnswerOfKind(
        "White-box monitoring is based on metrics exposed by the internals of the system.",
        "definition",
        new Set(),
        subject,
      ),
    ).toBe(true);
    expect(
      holdsAnswerOfKind(
        "We combine heavy use of white-box monitoring with black-box probes.",
        "definition",
        new Set(),
        subject,
      ),
    ).toBe(false);
  });

  it("finds names, dates, numbers and places the question does not already hold", () => {
    const asked = new Set(["who", "is", "mediating", "between", "mugabe", "and", "the", "generals"]);
    expect(holdsAnswerOfKind("Mr Mugabe is resisting mediation by a Catholic priest.", "person", asked)).toBe(false);
    expect(holdsAnswerOfKind("The priest, Fidelis Mukonori, is acting as a middle-man.", "person", asked)).toBe(true);
    expect(holdsAnswerOfKind("Applications close on January 15.", "date", new Set())).toBe(true);
    expect(holdsAnswerOfKind("Tours leave at 10 am on weekdays.", "date", new Set())).toBe(true);
    expect(holdsAnswerOfKind("Applications close soon.", "date", new Set())).toBe(false);
    expect(holdsAnswerOfKind("The program admits 120 students.", "number", new Set())).toBe(true);
    expect(holdsAnswerOfKind("The program admits students.", "number", new Set())).toBe(false);
    expect(holdsAnswerOfKind("A gunman opened fire in Louisiana.", "place", new Set())).toBe(true);
  });

  it("knows a number one can dial from an address's house number", () => {
    expect(holdsAnswerOfKind("Contact us: Office of Admissions, 1 College Road, Northfield.", "phone", new Set())).toBe(
      false,
    );
    expect(holdsAnswerOfKind("Phone: (555) 010-1891.", "phone", new Set())).toBe(true);
    expect(holdsAnswerOfKind("Call +44 20 7946 0958 on weekdays.", "phone", new Set())).toBe(true);
  });

  it("names the attribute a question's frame asks for", () => {
    expect(attributesAskedBy("How long is the nursing program?")).toEqual(["length", "duration"]);
    expect(attributesAskedBy("How heavy is the Trail Runner 2?")).toEqual(["weight"]);
    expect(attributesAskedBy("Who founded the college?")).toEqual([]);
    expect(answerKindOf("What is the price of the Trail Runner 2?")).toBe("amount");
  });

  it("tells questions that want several sentences", () => {
    expect(wantsSeveralSentences("How do I build a terrarium?")).toBe(true);
    expect(wantsSeveralSentences("What are the steps to apply?")).toBe(true);
    expect(wantsSeveralSentences("When is the deadline?")).toBe(false);
  });
});

describe("composeAnswer", () => {
  const passage = (text: string) => searchHit({ url: "https://example.edu/contact", title: "Contact", text });

  const terms = ["phone", "number", "admiss", "offic"].map((lexeme) => ({ lexeme, idf: 1 }));

  it("quotes at most two sentences, marking one it leaves out between them", () => {
    const text =
      "Contact us: Office of Admissions, Founders Hall, 1 College Road, Northfield. Open Monday to Friday, 8:30 am to 5 pm. Phone: (555) 010-1891.";
    const answer = composeAnswer("What is the phone number of the admissions office?", terms, [passage(text)]).text;
    expect(answer).toBe(
      "Contact us: Office of Admissions, Founders Hall, 1 College Road, Northfield. … Phone: (555) 010-1891.",
    );
  });

  it("quotes two sentences side by side when together they hold what the question asks, and neither alone does", () => {
    const text =
      "For decades the river was crossed by the old ferry, which ran every hour from the mill. It was replaced in 1931 by the Kingsway Bridge, built of riveted steel. The town grew quickly afterwards.";
    const asked = ["bridg", "ferri", "old", "replac"].map((lexeme) => ({ lexeme, idf: 1 }));
    expect(composeAnswer("Which bridge replaced the old ferry?", asked, [passage(text)]).text).toBe(
      "For decades the river was crossed by the old ferry, which ran every hour from the mill. It was replaced in 1931 by the Kingsway Bridge, built of riveted steel.",
    );
    // One sentence that says it all is quoted alone.
    expect(
      composeAnswer("Which bridge replaced the old ferry?", asked, [
        passage(`${text} In 1931 the new Kingsway Bridge of riveted steel replaced the old ferry across the river.`),
      ]).text,
    ).toBe("In 1931 the new Kingsway Bridge of riveted steel replaced the old ferry across the river.");
  });

  it("answers from a fact's line of a box or a table, alone and as label and value, the headings above it naming its subject", () => {
    const box = {
      ...passage("Quick facts\nCredits: 120\nLength: 4 years\nCampus: Hall 7, 100 College Road"),
      headingPath: ["Nursing (BSN)", "Quick facts"],
      chunkId: 2,
    };
    const story = passage(
      "Nursing students learn on the wards of three hospitals of the program's region from their second year.",
    );
    const asked = ["year", "nurs", "bsn", "program", "take"].map((lexeme) => ({ lexeme, idf: 1 }));
    expect(
      composeAnswer("How many years does the Nursing (BSN) program take?", asked, [
        { ...story, headingPath: ["Nursing (BSN)"] },
        box,
      ]).text,
    ).toBe("Length: 4 years");
    const credits = ["credit", "nurs", "bsn", "program"].map((lexeme) => ({ lexeme, idf: 1 }));
    expect(
      composeAnswer("How many credits is the Nursing (BSN) program?", credits, [
        { ...story, headingPath: ["Nursing (BSN)"] },
        box,
      ]).text,
    ).toBe("Credits: 120");
    // A label naming what the question's frame asks for ("How long": a length) answers it.
    const howLong = ["nurs", "program"].map((lexeme) => ({ lexeme, idf: 1 }));
    expect(
      composeAnswer("How long is the nursing program?", howLong, [{ ...story, headingPath: ["Nursing (BSN)"] }, box])
        .text,
    ).toBe("Length: 4 years");
    const table = {
      ...passage("At a glance\nCredits | 128\nTuition | $9,800 per semester\nStart | Fall and spring"),
      headingPath: ["Biology (BS)", "At a glance"],
    };
    const tuition = ["tuition", "biolog"].map((lexeme) => ({ lexeme, idf: 1 }));
    expect(composeAnswer("How much is tuition for biology?", tuition, [table]).text).toBe(
      "Tuition: $9,800 per semester",
    );
  });

  it("prefers the passage about the question's subject to an off-topic one holding its rarest word", () => {
    const asked = [
      { lexeme: "settler", idf: 1 },
      { lexeme: "fort", idf: 1 },
      { lexeme: "defend", idf: 3 },
    ];
    const about = {
      ...passage("The settlers of the fort kept a militia of their own, drilled every Sunday."),
      relevance: 10,
    };
    const offTopic = {
      ...passage("Words need defenders, the essay says."),
      chunkId: 2,
      url: "https://example.edu/essay",
      relevance: 3,
    };
    const answer = composeAnswer("How did the settlers defend the fort?", asked, [about, offTopic]);
    expect(answer.text).toBe("The settlers of the fort kept a militia of their own, drilled every Sunday.");
    expect(answer.passages[0].url).toBe("https://example.edu/contact");
  });

  it("quotes an answering sentence of up to 45 words whole, and cuts a longer one around its key words", () => {
    const asked = [
      { lexeme: "librari", idf: 2 },
      { lexeme: "open", idf: 1 },
    ];
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
    const sentence = (n: number) => `The library opens at eight on weekdays, ${filler(n - 10)} and closes late.`;
    expect(composeAnswer("When does the library open?", asked, [passage(sentence(45))]).text).toBe(sentence(45));
    const cut = composeAnswer("When does the library open?", asked, [passage(sentence(46))]).text;
    expect(cut).toMatch(/^The library opens at eight on weekdays, .*…$/);
    expect(cut.split(" ")).toHaveLength(45);
  });

  it("counts another form of a key word (Brazil for Brazilian) as most of that word", () => {
    const asked = [
      { lexeme: "brazilian", idf: 3 },
      { lexeme: "coloni", idf: 1 },
      { lexeme: "call", idf: 1 },
    ];
    const text =
      "Colonies were called many things over the centuries. Ships came every spring. The settlers in Brazil named their colony France Antarctique.";
    expect(composeAnswer("What was the Brazilian colony called?", asked, [passage(text)]).text).toBe(
      "The settlers in Brazil named their colony France Antarctique.",
    );
  });

  it("does not take the capital opening a sentence for a name, in a pair of sentences either", () => {
    const asked = [
      ["countri", 3.4],
      ["gas", 5.1],
      ["gasolin", 6],
      ["heat", 4.3],
      ["ration", 6.3],
    ].map(([lexeme, idf]) => ({ lexeme: String(lexeme), idf: Number(idf) }));
    const text =
      "Sweden rationed gasoline and heating oil. The Dutch jailed those who used more than their ration of power. " +
      "Scarcity was met by rationing (as in many countries). Motorists faced long lines at gas stations from the summer on.";
    expect(composeAnswer("Which country rationed gasoline and heating gas?", asked, [passage(text)]).text).toMatch(
      /^Sweden rationed gasoline and heating oil\./,
    );
  });
  it("sets a section's heading apart from the first sentence its line reads on into", () => {
    const asked = [
      ["book", 2.1],
      ["cost", 2.5],
      ["overdu", 6],
    ].map(([lexeme, idf]) => ({ lexeme: String(lexeme), idf: Number(idf) }));
    const fines = {
      ...passage("Library fines\nOverdue books cost 25 cents a day, up to 10 dollars."),
      headingPath: ["Fees", "Library fines"],
    };
    expect(composeAnswer("How much do overdue books cost?", asked, [fines]).text).toBe(
      "Library fines: Overdue books cost 25 cents a day, up to 10 dollars.",
    );
    // In a script without capitals, as in one with them.
    const hours = [
      ["시간", 3],
      ["운영", 4],
    ].map(([lexeme, idf]) => ({ lexeme: String(lexeme), idf: Number(idf) }));
    const library = {
      ...passage("도서관 이용\n중앙도서관은 평일 오전 9시부터 오후 10시까지 운영합니다."),
      headingPath: ["도서관 이용"],
    };
    expect(composeAnswer("도서관 운영 시간을 알려주세요", hours, [library]).text).toBe(
      "도서관 이용: 중앙도서관은 평일 오전 9시부터 오후 10시까지 운영합니다.",
    );
  });
});
