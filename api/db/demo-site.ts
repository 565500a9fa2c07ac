/**
 * The bundled demo university site (public/demo-site, served at /demo-site/): the pages its
 * sitemap lists, and the test questions the demo client's admissions agent ships with, whose
 * answers are on those pages.
 */

/** The demo site's pages, relative to its address (the sitemap's order). */
export const DEMO_SITE_PAGES = [
  "",
  "programs/",
  "admissions.html",
  "tuition.html",
  "campus-life.html",
  "contact.html",
] as const;

/** The demo site's sitemap for the address it is served at (`base` ends with a slash). */
export const demoSitemap = (base: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${DEMO_SITE_PAGES.map(
    (page) => `<url><loc>${base}${page}</loc></url>`,
  ).join("")}</urlset>`;

/** The demo client's agent whose questions ship with the demo. */
export const DEMO_TESTED_AGENT = "admissions";

/**
 * What a newcomer finds under the admissions agent's Test Questions: questions a prospective
 * student asks, each with the text its answer must hold and the page it must cite, and one the
 * site does not answer, which must get the fallback rather than a guess.
 */
export function demoTestQuestions(demoSiteUrl: string) {
  const answered = (question: string, expectText: string, page: string) => ({
    question,
    expectText,
    expectSource: `${demoSiteUrl}${page}`,
    expectOutcome: "answered",
  });
  return [
    answered("When is the regular decision deadline?", "January 15", "admissions.html"),
    answered("How much is the application fee?", "$40", "admissions.html"),
    answered("What does tuition cost for state residents?", "$12,400", "tuition.html"),
    answered("How many students does the nursing program admit?", "120 students", "programs/"),
    answered("When do campus tours leave?", "10 am", "contact.html"),
    answered("What TOEFL score do international applicants need?", "TOEFL 80", "admissions.html"),
    {
      question: "Who won the football game last night?",
      expectText: null,
      expectSource: null,
      expectOutcome: "fallback",
    },
  ];
}

/** One visitor's messages to the demo agent, and how they rated the assistant's last answer. */
export interface DemoVisit {
  messages: string[];
  rating?: { rating: "up" | "down"; comment?: string };
}

/**
 * What a newcomer finds under Conversations and Business Insights once the demo site is indexed:
 * three visitors' chats with the admissions agent in the sandbox, asked through the chat's own
 * path so each answer carries its real trace. One visitor leaves their name, email and phone (a lead) and
 * is glad of the answer; one asks what the site does not say, gets the fallback and says so, which
 * puts an unanswered question in Insights; one says hello (small talk, no question) and asks about
 * test scores.
 */
export const DEMO_VISITS: DemoVisit[] = [
  {
    messages: [
      "Hi, I'm Maya Chen, maya.chen@example.net, (555) 010-4477. What does tuition cost for out-of-state students?",
      "Can I pay it in monthly installments?",
    ],
    rating: { rating: "up" },
  },
  {
    messages: ["Is there parking for first-year students who bring a car?"],
    rating: { rating: "down", comment: "I needed to know where I can park." },
  },
  { messages: ["Hello!", "Do I need to send my test scores?"] },
];
