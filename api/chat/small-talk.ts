import type { SmallTalkKind } from "@contract";
import { sentencesOf } from "../knowledge/words/sentences";
import { questionPartOf, withoutSelfDescription } from "./profile-capture";

/*
 * Visitors greet the assistant, thank it, say goodbye, say "ok", or only give their name and email.
 * Searched as questions, those words are in no page, so each got the fallback ("I couldn't find that
 * in our published information") and counted as an unanswered question in Insights, and an
 * introduction ("My name is Mira and my email is …") was answered with the contact page's email,
 * the one word left once the visitor's own were taken out. A message that says nothing but such
 * words gets a short reply of its kind instead (outcome `small_talk`), and is not a question:
 * Insights counts it among the messages, never among the questions.
 *
 * The words are English: a message in another language is searched as before, and gets the
 * client's own fallback message in its language when nothing answers it.
 */

const GREETING = ["hi", "hello", "hey", "heya", "hiya", "howdy", "greetings", "morning", "afternoon", "evening"];
const THANKS = ["thanks", "thank", "thx", "ty", "cheers", "appreciate", "appreciated", "grateful", "thankful"];
const FAREWELL = ["bye", "goodbye", "byebye", "farewell", "cya", "goodnight", "night", "later"];
const ACKNOWLEDGEMENT = [
  "ok",
  "okay",
  "kk",
  "alright",
  "sure",
  "great",
  "cool",
  "nice",
  "perfect",
  "awesome",
  "excellent",
  "wonderful",
  "fantastic",
  "brilliant",
  "lovely",
  "understood",
  "noted",
  "gotcha",
  "got",
  "fine",
  "good",
];

const KIND_OF_WORD = new Map<string, Exclude<SmallTalkKind, "introduction">>([
  ...GREETING.map((word) => [word, "greeting"] as const),
  ...THANKS.map((word) => [word, "thanks"] as const),
  ...FAREWELL.map((word) => [word, "farewell"] as const),
  ...ACKNOWLEDGEMENT.map((word) => [word, "acknowledgement"] as const),
]);

/** Words that say nothing of a subject around those above ("thank you so much for your help"). */
const AROUND = new Set(
  (
    "i me my we you your u it its is am are was be a an the and or but so to for of at in on with this that " +
    "there here all everyone very much really lot lots again too well just oh ah wow haha lol " +
    "help helping info information answer answers reply day have see take care soon how doing " +
    "sounds you're youre that's thats it's i'm im earlier today tonight before now"
  ).split(" "),
);

/** The words a visitor names what they give with ("my email is …"), when they gave it. */
const GIVEN = new Set([
  "name",
  "email",
  "e-mail",
  "mail",
  "phone",
  "number",
  "mobile",
  "cell",
  "contact",
  "details",
  "call",
  "reach",
  "text",
]);

/** A kind's place when a message says more than one: a farewell ends, thanks answers, a greeting opens. */
const PRECEDENCE: Exclude<SmallTalkKind, "introduction">[] = ["farewell", "thanks", "greeting", "acknowledgement"];

/** Longer than this, a message says more than small talk. */
const MAX_WORDS = 16;

export interface SmallTalk {
  kind: SmallTalkKind;
  /** The name the visitor introduced themselves with, if any. */
  name: string | null;
  /** Whether they greeted too ("Hi, I'm Mira"). */
  greeted: boolean;
}

/** What a message is when it says nothing to search for; null when it may ask something. */
export function smallTalkOf(message: string): SmallTalk | null {
  const { rest, gave, name } = withoutSelfDescription(message);
  const words =
    rest
      .toLowerCase()
      .replace(/\u2019/g, "'")
      .match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  if (words.length > MAX_WORDS) return null;
  const kinds = new Set<Exclude<SmallTalkKind, "introduction">>();
  for (const word of words) {
    const kind = KIND_OF_WORD.get(word);
    if (kind) kinds.add(kind);
    else if (!AROUND.has(word) && !(gave && GIVEN.has(word))) return null;
  }
  // "How are you?" greets, though every word of it is one that goes around others.
  if (/\bhow are (?:you|u)\b/i.test(rest)) kinds.add("greeting");
  const greeted = kinds.has("greeting");
  if (gave) return { kind: "introduction", name, greeted };
  const kind = PRECEDENCE.find((candidate) => kinds.has(candidate));
  return kind ? { kind, name: null, greeted } : null;
}

/** The assistant's reply to small talk: short, and inviting the question. */
export function smallTalkReply({ kind, name, greeted }: SmallTalk) {
  const invite = "What would you like to know?";
  switch (kind) {
    case "introduction":
      return `${greeted ? "Hello" : "Thank you"}${name ? `, ${name.split(" ")[0]}` : ""}! ${invite}`;
    case "greeting":
      return `Hello! ${invite}`;
    case "thanks":
      return "You're welcome! Is there anything else I can help you with?";
    case "farewell":
      return "Goodbye, and thank you for your visit!";
    case "acknowledgement":
      return "Is there anything else I can help you with?";
  }
}

/** A message's opening words up to its first comma ("Hi there, …", "Thanks, …"). */
const OPENING_CLAUSE = /^([^,]{1,40}),\s*(?=\S)/u;

/**
 * What a message asks, as it is searched and counted: without its sentences of small talk, which
 * include a visitor's introduction ("Hi. What does tuition cost?", "Thanks so much for your help
 * earlier. When do tours leave?", "My email is jo@example.org. What is the fee?"), without the
 * contact details and name left in the rest (`questionPartOf`), and without opening words of small
 * talk before a comma ("Hey there, how much is the fee?"), when something else remains. Those words
 * are in no page: searched, they weigh against the question; counted, "Hi. What does tuition
 * cost?" was a Top question of its own beside "What does tuition cost?".
 */
export function askedPartOf(message: string) {
  const sentences = sentencesOf(message);
  const kept = sentences.filter((sentence) => !smallTalkOf(sentence));
  if (!kept.length) return questionPartOf(message);
  let asked = questionPartOf(kept.length < sentences.length ? kept.join(" ") : message);
  const opening = OPENING_CLAUSE.exec(asked);
  if (opening && smallTalkOf(opening[1])) asked = asked.slice(opening[0].length);
  return asked === message ? message : asked.charAt(0).toUpperCase() + asked.slice(1);
}
