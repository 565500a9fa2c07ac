import { describe, expect, it } from "vitest";
import { askedPartOf, smallTalkOf, smallTalkReply } from "./small-talk";

describe("small talk", () => {
  it.each([
    ["hi", "greeting"],
    ["Hey there!", "greeting"],
    ["How are you?", "greeting"],
    ["Thanks a lot for your help", "thanks"],
    ["Thank you, you’re great!", "thanks"],
    ["ok", "acknowledgement"],
    ["Got it, perfect.", "acknowledgement"],
    ["Goodbye!", "farewell"],
    ["Thanks, see you later", "farewell"],
    ["My email is jo@example.org", "introduction"],
    ["phone: +1 (555) 123-4567", "introduction"],
  ])("reads %j as %s", (message, kind) => {
    expect(smallTalkOf(message)?.kind).toBe(kind);
  });

  it.each([
    "Hi, what does tuition cost?",
    "Thanks. How much is the application fee?",
    "Thank you for the info about tuition",
    "My name is Mira and I want to study nursing",
    "yes",
    "Can you help me?",
    "What is 1973-1974 known for?",
    // Other languages are searched as before (and get the client's own fallback message).
    "안녕하세요",
    "Gracias",
    "谢谢",
    `${"thanks ".repeat(17)}`,
  ])("searches %j", (message) => {
    expect(smallTalkOf(message)).toBeNull();
  });

  it("greets an introduced visitor by their first name, and thanks one who only left an address", () => {
    expect(smallTalkReply(smallTalkOf("Hi, I'm Maya Chen")!)).toBe("Hello, Maya! What would you like to know?");
    expect(smallTalkReply(smallTalkOf("This is Bo, bo@example.org")!)).toBe(
      "Thank you, Bo! What would you like to know?",
    );
    expect(smallTalkReply(smallTalkOf("bo@example.org")!)).toBe("Thank you! What would you like to know?");
  });
});

describe("what a message asks", () => {
  it("leaves out sentences and opening words of small talk around the question", () => {
    expect(askedPartOf("Hi. What does tuition cost?")).toBe("What does tuition cost?");
    expect(askedPartOf("Thanks so much for your help earlier. When do tours leave?")).toBe("When do tours leave?");
    expect(askedPartOf("Hey there, how much is the application fee?")).toBe("How much is the application fee?");
    expect(askedPartOf("Good morning! Is there parking on campus? Thanks!")).toBe("Is there parking on campus?");
    expect(askedPartOf("Hi, I'm Maya Chen, maya.chen@example.net. What does tuition cost?")).toBe(
      "What does tuition cost?",
    );
  });

  it("leaves out a sentence that only introduces the visitor, and their details inside the question", () => {
    expect(askedPartOf("My email is jo@example.org. What is the fee?")).toBe("What is the fee?");
    expect(askedPartOf("Hi there! My name is Jo Park and my phone is 555-010-2233. When do tours leave?")).toBe(
      "When do tours leave?",
    );
    expect(askedPartOf("My name is Ana, when do tours leave? Call me at +1 (555) 010-2233.")).toBe(
      "When do tours leave?",
    );
  });

  it("keeps a question whole when its opening words say something, and small talk alone as it is", () => {
    expect(askedPartOf("Nice campus, how big is it?")).toBe("Nice campus, how big is it?");
    expect(askedPartOf("What does tuition cost?")).toBe("What does tuition cost?");
    expect(askedPartOf("Is the great hall open, and when?")).toBe("Is the great hall open, and when?");
    expect(askedPartOf("Thanks, bye!")).toBe("Thanks, bye!");
  });
});
