/**
 * Pages that are not articles, answered through the widget as visitors ask.
 *
 * Questions and answers set out as an accordion, the way most FAQ pages are built: the question a
 * button (WAI-ARIA's accordion pattern puts it in a heading, Bootstrap names that heading
 * "accordion-header"), the answer a panel hidden until the button is pressed (the `hidden`
 * attribute, an inline `display: none`, or a class the site's CSS hides). The answers do not repeat
 * their question's words, as answers often do not, so a visitor asking in those words finds the
 * answer only when the question was indexed as the answer's heading (docs/decisions/022).
 *
 * A shop's product page: its price, stock and specifications stand in boxes beside the description,
 * and a visitor asks about them first. A contact page: its offices stand in a row of cards, the
 * shortest of which Readability leaves out. A program's page: its quick facts stand in a box beside
 * the text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askWidget, indexedSite } from "../../tests/support/widget-chat";

interface Item {
  question: string;
  answer: string;
}

const accordions: { name: string; items: Item[]; render: (item: Item, at: number) => string }[] = [
  {
    name: "the WAI-ARIA pattern, panels hidden by attribute",
    items: [
      {
        question: "Can I defer my place to next year?",
        answer: "Yes: write to the registrar before June 1 and you may start one year later, keeping your scholarship.",
      },
      {
        question: "Is campus housing guaranteed for freshmen?",
        answer: "Every first-year student who replies by May 1 gets a room in one of the four halls on the north lawn.",
      },
      {
        question: "Do you accept transfer credits?",
        answer:
          "Courses passed with a C or better at an accredited college count toward your degree, up to 60 of them.",
      },
    ],
    render: (
      { question, answer },
      at,
    ) => `<h3><button type="button" aria-expanded="false" aria-controls="answer-${at}" id="question-${at}">${question}</button></h3>
      <div id="answer-${at}" role="region" aria-labelledby="question-${at}" hidden><p>${answer}</p></div>`,
  },
  {
    name: "Bootstrap's accordion, panels hidden by the site's stylesheet",
    items: [
      {
        question: "Which scholarships can international applicants receive?",
        answer: "Students from abroad compete for the Harbor and Meridian awards, worth up to $9,000 a year each.",
      },
      {
        question: "May parents attend orientation?",
        answer: "Families join the first morning's welcome breakfast and a separate afternoon session with the deans.",
      },
      {
        question: "Where do commuters park?",
        answer:
          "Lot C beside the stadium is reserved for them; a semester permit costs $140 at the campus police desk.",
      },
    ],
    render: (
      { question, answer },
      at,
    ) => `<div class="accordion-item"><h2 class="accordion-header" id="heading-${at}"><button class="accordion-button collapsed"
      type="button" data-bs-toggle="collapse" data-bs-target="#collapse-${at}" aria-expanded="false" aria-controls="collapse-${at}">${question}</button></h2>
      <div id="collapse-${at}" class="accordion-collapse collapse"><div class="accordion-body">${answer}</div></div></div>`,
  },
  {
    name: "a script's accordion, panels hidden by inline style",
    items: [
      {
        question: "Are laptops required for engineering students?",
        answer:
          "First-year engineers bring a machine that runs Windows with 16 GB of memory; the bookstore lends some.",
      },
      {
        question: "Can alumni audit lectures?",
        answer: "Graduates sit in on two courses a term free of charge once the instructor agrees by e-mail.",
      },
      {
        question: "What happens if I miss the enrollment deposit?",
        answer:
          "Your offer lapses after May 15 and the seat goes to the waiting list, unless the office grants an extension.",
      },
    ],
    render: (
      { question, answer },
      at,
    ) => `<div class="faq-item"><button class="faq-question" aria-expanded="false" aria-controls="faq-${at}">${question}</button>
      <div class="faq-answer" id="faq-${at}" style="display: none"><p>${answer}</p></div></div>`,
  },
];

const pages = accordions.map(({ items, render }, at) => ({
  path: `/faq-${at + 1}`,
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Questions, part ${at + 1}</title></head>
    <body><header><nav><a href="/">Home</a></nav></header><main><h1>Questions, part ${at + 1}</h1>
    <p>Answers to what applicants ask us most often, kept up to date by the admissions office every term.</p>
    ${items.map(render).join("\n")}</main><footer><p>Northfield University</p></footer></body></html>`,
}));

const product = {
  path: "/shop/trail-runner-2",
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trail Runner 2 | Campus Store</title>
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Trail Runner 2","offers":{"@type":"Offer","price":"129.00","priceCurrency":"USD"}}</script></head>
    <body><header><nav><a href="/shop">Shop</a></nav></header><main><div class="product">
    <div class="info"><h1>Trail Runner 2</h1><p class="price">$129.00</p><p class="stock">In stock: ships within two business days, returns free for a month.</p></div>
    <div class="description"><h2>Description</h2><p>A lightweight shoe for long days on rocky ground, with a sole that holds on wet stone and a rock plate under the forefoot.</p>
    <p>Its upper of recycled mesh dries quickly after a stream crossing, and a padded collar keeps grit out on steep descents.</p></div>
    <div class="specs"><h2>Specifications</h2><table><tr><th>Weight</th><td>280 g</td></tr><tr><th>Drop</th><td>6 mm</td></tr></table></div>
    </div></main><footer><p>Northfield University</p></footer></body></html>`,
};

const office = (name: string, lines: string) => `<div class="col card"><h2>${name}</h2><p>${lines}</p></div>`;
const contact = {
  path: "/contact",
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact us</title></head>
    <body><header><nav><a href="/">Home</a></nav></header><main><h1>Contact us</h1>
    <p>Our counselors answer questions about applying, visiting campus and paying for college, by phone or by e-mail.</p>
    <div class="row">${office("Office of Admissions", "Hall 2, 100 College Road, Northfield<br>Phone: (555) 010-1891<br>Open Monday to Friday, 8:30 am to 5 pm")}
    ${office("Student accounts", "Hall 4, 100 College Road, Northfield<br>Phone: (555) 010-1920<br>Open Monday to Thursday, 9 am to 4 pm")}
    ${office("Financial aid", "Phone: (555) 010-1900")}</div></main><footer><p>Northfield University</p></footer></body></html>`,
};

const program = {
  path: "/programs/nursing",
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Nursing (BSN)</title></head>
    <body><header><nav><a href="/">Home</a></nav></header><main><h1>Nursing (BSN)</h1><div class="layout">
    <div class="story"><p>Nursing students learn in the classroom, in the simulation lab and on the wards of three hospitals of the region from their second year.</p>
    <p>Graduates sit the licensing exam in their final spring; nine in ten pass it on their first attempt, well above the state's average.</p>
    <p>Small seminar groups, a mentor for each student and evening labs make the program workable for those who hold a job.</p></div>
    <aside class="facts"><h2>Quick facts</h2><ul><li>Credits: 120</li><li>Length: 4 years</li><li>Campus: Hall 7, 100 College Road</li></ul></aside>
    </div></main><footer><p>Northfield University</p></footer></body></html>`,
};

let site: Awaited<ReturnType<typeof indexedSite>>;
beforeAll(async () => {
  site = await indexedSite([...pages, product, contact, program]);
}, 120_000);
afterAll(() => site?.close());

describe("an FAQ built as an accordion", () => {
  it.each(accordions.map(({ name }, at) => [name, at] as const))(
    "answers its questions from the answers it hides: %s",
    async (_, at) => {
      for (const { question, answer } of accordions[at].items) {
        const asked = await askWidget(site, question);
        expect(asked.outcome, question).toBe("answered");
        expect(asked.text, question).toContain(answer.split(" ").slice(1, 7).join(" "));
        expect(asked.firstSource, question).toBe(`${site.base}${pages[at].path}`);
      }
    },
  );
});

/** Each question answered with a text holding what is expected, citing `page` first. */
async function expectAnsweredFrom(page: { path: string }, questions: [question: string, expected: string][]) {
  for (const [question, expected] of questions) {
    const asked = await askWidget(site, question);
    expect(asked.text, question).toContain(expected);
    expect(asked.firstSource, question).toBe(`${site.base}${page.path}`);
  }
}

describe("pages that set out their facts in boxes of their own", () => {
  it("answers for a product's price, stock and specifications, not only from its description", () =>
    expectAnsweredFrom(product, [
      ["How much does the Trail Runner 2 cost?", "$129.00"],
      ["Is the Trail Runner 2 in stock?", "ships within two business days"],
      ["What is the weight of the Trail Runner 2?", "280 g"],
    ]));

  it("answers for each office of a contact page's row of cards, the shortest too", () =>
    expectAnsweredFrom(contact, [
      ["What is the phone number of the financial aid office?", "(555) 010-1900"],
      ["What is the phone number of student accounts?", "(555) 010-1920"],
    ]));

  it("answers from the box of quick facts beside a program's text", () =>
    expectAnsweredFrom(program, [
      ["How many credits is the Nursing (BSN) program?", "120"],
      ["What is the length of the Nursing (BSN) program?", "4 years"],
      ["How many years does the Nursing (BSN) program take?", "4 years"],
      // The box names the program only in its headings; the page's text, which names it, says nothing of either.
      ["How long does the nursing program take?", "Length: 4 years"],
      ["Where is the Nursing (BSN) program taught?", "Campus: Hall 7"],
      // A campus is a location, as a building or a room is: the line labelled so says where.
      ["Where is the nursing program taught?", "Campus: Hall 7"],
    ]));

  it("quotes the one fact asked for, not the whole box, and a table's row as its label and value", async () => {
    for (const [question, fact] of [
      ["How many credits is the Nursing (BSN) program?", "Credits: 120"],
      ["How many years does the Nursing (BSN) program take?", "Length: 4 years"],
      ["What is the weight of the Trail Runner 2?", "Weight: 280 g"],
      // The label names what the question's frame asks for: a weight, a length.
      ["How heavy is the Trail Runner 2?", "Weight: 280 g"],
      ["How long is the Nursing (BSN) program?", "Length: 4 years"],
    ])
      expect((await askWidget(site, question)).text, question).toBe(fact);
  });
});
