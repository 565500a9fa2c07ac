/**
 * The question set of the answer-quality benchmark (bench/answers.ts): what a visitor would ask
 * about the pages it indexes, each with the text a right answer must contain (any one of
 * `answers`, compared without case, quote style or spacing) and the page that holds it.
 *
 * Pages: `real-pages/*` and `real-pages-dev/*` are the shared fixtures' saved web pages
 * (`../shared/fixtures`), `demo-site/*` the demo university site bundled with the console,
 * `pdfs/*` the shared fixtures' real PDFs. Written from the pages before the answer composer was
 * tuned; questions are not to be edited to suit the composer.
 */
export interface BenchQuestion {
  question: string;
  /** The answer is right when it contains any of these. */
  answers: string[];
  /** The page that holds the answer, as the benchmark site serves it. */
  page: string;
}

const q = (page: string, question: string, ...answers: string[]): BenchQuestion => ({ page, question, answers });

export const QUESTIONS: BenchQuestion[] = [
  // The demo university site.
  q("demo-site/index.html", "When was Northfield University founded?", "1891"),
  q("demo-site/index.html", "How many undergraduate students study at Northfield?", "6,200"),
  q("demo-site/index.html", "How big is the median class?", "22 students"),
  q("demo-site/index.html", "Which lake is the university on?", "Lake Ardent"),
  q(
    "demo-site/index.html",
    "How many graduates are employed or in graduate school within six months?",
    "Ninety-four percent",
  ),
  q("demo-site/tuition.html", "How much is tuition for out-of-state students?", "$19,800"),
  q("demo-site/tuition.html", "What does tuition cost for state residents?", "$12,400"),
  q("demo-site/tuition.html", "What is the deadline to complete the FAFSA?", "March 1"),
  q("demo-site/tuition.html", "Do I need to apply separately for merit scholarships?", "no separate application"),
  q("demo-site/tuition.html", "How much do housing and meals cost?", "$6,100"),
  q("demo-site/tuition.html", "Can I pay tuition in installments?", "four monthly installments"),
  q("demo-site/tuition.html", "What share of students receive grants or scholarships?", "Eighty-one percent"),
  q("demo-site/campus-life.html", "How many student clubs are there?", "150"),
  q("demo-site/campus-life.html", "Is counseling available at night?", "around the clock"),
  q("demo-site/campus-life.html", "Where can I get free tutoring?", "Student Success Center"),
  q("demo-site/campus-life.html", "How many residence halls are there?", "six residence halls"),
  q("demo-site/contact.html", "What are the admissions office hours?", "8:30 am to 5 pm"),
  q("demo-site/contact.html", "What is the phone number of the admissions office?", "(555) 010-1891"),
  q("demo-site/contact.html", "When do campus tours leave on Saturdays?", "11 am"),
  q("demo-site/contact.html", "Where do guided tours leave from?", "Founders Hall"),
  q("demo-site/programs/index.html", "How many students does the nursing program admit each fall?", "120"),
  q(
    "demo-site/programs/index.html",
    "Where do nursing clinical placements take place?",
    "Northfield Regional Hospital",
  ),
  q("demo-site/programs/index.html", "Do I need a GMAT score for the MBA?", "not required"),
  q("demo-site/programs/index.html", "How long does the part-time MBA take?", "three years"),
  q(
    "demo-site/programs/index.html",
    "Which concentrations can computer science students choose?",
    "software engineering, data science or security",
  ),
  q("demo-site/programs/index.html", "Which licensure exam does the nursing degree prepare for?", "NCLEX-RN"),
  q("demo-site/admissions.html", "When is the early action deadline?", "November 1"),
  q("demo-site/admissions.html", "How much is the application fee?", "$40"),
  q("demo-site/admissions.html", "What TOEFL score do international applicants need?", "TOEFL 80"),
  q("demo-site/admissions.html", "When is the regular decision deadline?", "January 15"),
  q("demo-site/admissions.html", "Are test scores required for admission?", "Test scores are optional"),

  // Dropbox's engineering blog: the async task framework.
  q("real-pages/dropbox-blog", "How many async tasks per second does ATF serve?", "9,000"),
  q("real-pages/dropbox-blog", "How many engineering teams use ATF?", "28", "nearly 30"),
  q("real-pages/dropbox-blog", "What does ATF use to queue tasks internally?", "SQS", "Simple Queue Service"),
  q("real-pages/dropbox-blog", "Which store does ATF use as its task store?", "Edgestore"),
  q("real-pages/dropbox-blog", "How often does ATF poll for ready tasks?", "every two seconds"),
  q("real-pages/dropbox-blog", "When does an Executor process terminate itself?", "three consecutive heartbeat"),
  q("real-pages/dropbox-blog", "How available is the ATF service for scheduling requests?", "99.9%"),
  q("real-pages/dropbox-blog", "What share of ATF tasks begin execution within five seconds?", "95%"),
  q("real-pages/dropbox-blog", "What does Dropbox use for remote calls?", "gRPC"),
  q("real-pages/dropbox-blog", "What is a lambda in ATF?", "callback implementing business logic"),

  // eHow: building a terrarium.
  q("real-pages/ehow-1", "How much smaller than the cloche should I cut the foam oasis?", "3/4 inch"),
  q("real-pages/ehow-1", "Which plants work best in a closed terrarium?", "succulents"),
  q("real-pages/ehow-1", "What do I use to attach the moss around the oasis?", "floral pins"),
  q("real-pages/ehow-1", "When do closed terrariums need water?", "not misting up"),
  q("real-pages/ehow-1", "What was placed inside the terrarium on the wood slice?", "toy squirrel"),

  // GitLab's DevSecOps survey.
  q("real-pages/gitlab-blog", "How many DevSecOps professionals took the survey?", "5,000"),
  q("real-pages/gitlab-blog", "What share of respondents using AI wanted to consolidate their toolchain?", "74%"),
  q(
    "real-pages/gitlab-blog",
    "What percentage of respondents said developer onboarding takes more than a month?",
    "70%",
  ),
  q("real-pages/gitlab-blog", "How many respondents fear AI will replace their current role?", "49%"),
  q("real-pages/gitlab-blog", "Who is the senior analyst at RedMonk quoted in the survey?", "Rachel Stephens"),
  q("real-pages/gitlab-blog", "Where did cloud computing rank as an investment priority in 2024?", "number five"),
  q(
    "real-pages/gitlab-blog",
    "What share of respondents said introducing AI into the software development lifecycle is risky?",
    "55%",
  ),

  // Google's SRE book: monitoring distributed systems.
  q(
    "real-pages/google-sre-book-1",
    "What are the four golden signals of monitoring?",
    "latency, traffic, errors, and saturation",
  ),
  q(
    "real-pages/google-sre-book-1",
    "How many members of an SRE team typically build monitoring systems?",
    "one or sometimes two",
  ),
  q("real-pages/google-sre-book-1", "How is traffic measured for a web service?", "HTTP requests per second"),
  q("real-pages/google-sre-book-1", "What gives a very early signal of saturation?", "99th percentile"),
  q("real-pages/google-sre-book-1", "How much downtime per year does 99.9% annual uptime allow?", "9 hours"),
  q(
    "real-pages/google-sre-book-1",
    "How should histogram boundaries for latency buckets be distributed?",
    "exponentially",
  ),
  q("real-pages/google-sre-book-1", "What is black-box monitoring?", "symptom-oriented", "externally visible behavior"),

  // An IETF draft: remoteStorage.
  q("real-pages/ietf-1", "What is access control in remoteStorage based on?", "bearer tokens"),
  q("real-pages/ietf-1", "Which content type must a folder listing have?", "application/ld+json"),
  q("real-pages/ietf-1", "Is content length measured in bytes or characters?", "octets"),
  q("real-pages/ietf-1", "Which transfer coding must servers support on PUT requests?", "chunked transfer coding"),

  // LWN: the Arduino trademark dispute and QGIS 2.8.
  q("real-pages/lwn-1", "When was Arduino LLC incorporated?", "2008"),
  q("real-pages/lwn-1", "Who founded Smart Projects SRL?", "Martino"),
  q("real-pages/lwn-1", "When did Arduino LLC file to register the US trademark?", "April 2009"),
  q("real-pages/lwn-1", "Who is the CEO of Arduino SRL?", "Federico Musto"),
  q("real-pages/lwn-1", "Where did the Arduino project grow out of?", "Interaction Design Institute Ivrea"),
  q("real-pages/lwn-1", "When was QGIS 2.8 unveiled?", "March 2"),
  q("real-pages/lwn-1", "How long will QGIS backport bug fixes to the long-term release?", "one full calendar year"),
  q("real-pages/lwn-1", "Which domain does Arduino SRL's web site use?", "arduino.org"),

  // Medical News Today: the a-ha moment.
  q("real-pages/medicalnewstoday", "Who led the research on the a-ha moment?", "Michael Shadlen"),
  q("real-pages/medicalnewstoday", "In which journal were the a-ha moment findings published?", "Current Biology"),
  q("real-pages/medicalnewstoday", "How many people performed the direction discrimination task?", "five"),
  q(
    "real-pages/medicalnewstoday",
    "What is deciding once the brain has accumulated enough evidence called?",
    "bounded evidence accumulation",
  ),
  q(
    "real-pages/medicalnewstoday",
    "Which technique did the researchers use to determine when the decision was made?",
    "mental chronometry",
  ),
  q("real-pages/medicalnewstoday", "At which university did the a-ha moment researchers work?", "Columbia University"),

  // Mercurial's evolve extension.
  q("real-pages/mercurial", "How do I make a repository non-publishing?", "phases.publish to false", "publish = false"),
  q("real-pages/mercurial", "What does hg push do to draft changesets by default?", "from draft to public"),
  q(
    "real-pages/mercurial",
    "Does Mercurial transfer hidden changesets on push and pull?",
    "transfer hidden changesets",
  ),

  // Mozilla: customising Firefox, and Firefox Developer Edition.
  q("real-pages/mozilla-1", "How do I add or remove buttons in Firefox?", "Customize"),
  q("real-pages/mozilla-1", "What are Firefox add-ons?", "apps that you install"),
  q("real-pages/mozilla-1", "What does the Awesome Bar do?", "learns as you browse"),
  q("real-pages-dev/mozilla-2", "Which tool replaces App Manager?", "WebIDE"),
  q("real-pages-dev/mozilla-2", "What does the Network Monitor show?", "network requests"),

  // V8's blog: standalone WebAssembly with Emscripten.
  q("real-pages/v8-blog", "How big is the standalone add.wasm file?", "87 bytes"),
  q("real-pages/v8-blog", "Which Wasm runtimes can run standalone Wasm files?", "wasmer"),
  q("real-pages/v8-blog", "Which Emscripten option supports dynamic libraries?", "SIDE_MODULE"),
  q("real-pages/v8-blog", "Which flag emits a standalone Wasm file with optional JS?", "STANDALONE_WASM"),
  q("real-pages/v8-blog", "How many lines is zeux's meshoptimizer loader?", "57 lines"),
  q("real-pages/v8-blog", "What does WASI focus on?", "standardizing APIs for Wasm on the server"),

  // News pages of the development set.
  q("real-pages-dev/bbc-1", "What did Obama call the greatest frustration of his presidency?", "gun safety laws"),
  q("real-pages-dev/bbc-1", "Who is the BBC's North America editor?", "Jon Sopel"),
  q(
    "real-pages-dev/bbc-1",
    "In which state did a gunman open fire at a cinema after the Obama interview?",
    "Louisiana",
  ),
  q(
    "real-pages-dev/bbc-1",
    "How many Americans have been killed by terrorism since 9/11 according to Obama?",
    "less than 100",
  ),
  q("real-pages-dev/ars-1", "Who found the Minecraft server crash bug?", "Ammar Askar"),
  q("real-pages-dev/ars-1", "How large is the NBT data of the Minecraft attack payload?", "26.6 megabytes"),
  q("real-pages-dev/ars-1", "How small does zlib compress the Minecraft attack data?", "39 kilobytes"),
  q("real-pages-dev/ars-1", "Which file format do Minecraft items use for arbitrary metadata?", "Named Binary Tag"),
  q("real-pages-dev/telegraph", "Who is mediating between Mugabe and the generals?", "Fidelis Mukonori"),
  q("real-pages-dev/telegraph", "Since when has Mugabe led Zimbabwe?", "1980"),
  q("real-pages-dev/telegraph", "How old is Grace Mugabe?", "52"),
  q("real-pages-dev/breitbart", "Which Snopes writer asked about un-angry Trump supporters?", "David Emery"),

  // Real PDFs: the libtasn1 manual and the Shared MIME-info specification.
  q("pdfs/libtasn1.pdf", "What is the header file of libtasn1?", "libtasn1.h"),
  q(
    "pdfs/libtasn1.pdf",
    "Under which license can anybody redistribute the libtasn1 library?",
    "Lesser General Public License",
  ),
  q("pdfs/libtasn1.pdf", "Does libtasn1 handle the REAL type?", "handle the REAL type"),
  q("pdfs/libtasn1.pdf", "What does asn1Coding generate?", "DER encoding"),
  q("pdfs/libtasn1.pdf", "Which asn1Decoding option performs a benchmark on decoding?", "--benchmark"),
  q("pdfs/shared-mime-info-spec.pdf", "What is the default glob weight?", "50"),
  q(
    "pdfs/shared-mime-info-spec.pdf",
    "Which command must an application run after installing its MIME XML file?",
    "update-mime-database",
  ),
  q("pdfs/shared-mime-info-spec.pdf", "Who wrote the Shared MIME-info Database specification?", "Thomas Leonard"),
  q("pdfs/shared-mime-info-spec.pdf", "What string does the MIME magic file start with?", "MIME-Magic"),
  q("pdfs/shared-mime-info-spec.pdf", "What is an alias of audio/midi?", "audio/x-midi"),
  q("pdfs/shared-mime-info-spec.pdf", "Which version of the Shared MIME-info Database specification is this?", "0.21"),
];
