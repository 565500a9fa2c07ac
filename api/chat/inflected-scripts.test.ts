/**
 * Sites in Russian and Arabic, answered through the widget as visitors ask. Both languages inflect
 * their words, and Arabic writes "the" as part of the word ("الرسوم", the fees): a question meets
 * its page only once both are reduced to the same stems by their language's stemmer
 * (api/knowledge/words/lexemes.ts). Before that, a question asking in another form of the page's words
 * got the fallback, or another page.
 */
import { afterAll, beforeAll, it } from "vitest";
import { expectAnsweredFrom, expectFallback, indexedSite, pageIn, visitPage } from "../../tests/support/widget-chat";

let site: Awaited<ReturnType<typeof indexedSite>>;
beforeAll(async () => {
  site = await indexedSite([
    {
      path: "/ru/admissions",
      html: pageIn("ru", "Поступление", [
        "Стоимость обучения на бакалавриате составляет 240 000 рублей в год.",
        "Приём заявлений на бакалавриат заканчивается 20 июля. Документы подаются через личный кабинет абитуриента.",
        "Общежития университета находятся в десяти минутах ходьбы от главного корпуса.",
      ]),
    },
    {
      path: "/ru/library",
      html: pageIn("ru", "Библиотека", [
        "Читальный зал библиотеки открыт ежедневно с 9 до 21 часа.",
        "Студенты могут брать на дом до пяти книг на срок до одного месяца.",
      ]),
    },
    {
      path: "/ar/fees",
      html: pageIn("ar", "الرسوم والمكتبة", [
        "تبلغ الرسوم الدراسية لطلاب البكالوريوس 12000 دولار في السنة.",
        "تفتح المكتبة المركزية أبوابها من الساعة الثامنة صباحا حتى العاشرة مساء.",
        "يقع السكن الجامعي للطالبات شرق الحرم الجامعي.",
      ]),
    },
    visitPage,
  ]);
}, 60_000);
afterAll(async () => site?.close());

it.each([
  // Other cases and numbers of the page's words ("стоимости" for "Стоимость", "общежитие" for
  // "Общежития"), and "е" typed for the page's "ё", as Russian is commonly written.
  ["Расскажите о стоимости обучения", "240 000 рублей", "/ru/admissions"],
  ["Когда заканчивается прием заявлений?", "20 июля", "/ru/admissions"],
  ["Где находится общежитие?", "десяти минутах", "/ru/admissions"],
  ["Сколько книг можно взять в библиотеке?", "пяти книг", "/ru/library"],
  // No article on the question's nouns ("رسوم", "مكتبة"), the page's have it ("الرسوم", "المكتبة").
  ["كم تبلغ رسوم الدراسة؟", "12000 دولار", "/ar/fees"],
  ["متى تفتح مكتبة الجامعة؟", "الثامنة", "/ar/fees"],
  ["أين يقع سكن الطالبات؟", "شرق الحرم", "/ar/fees"],
  ["When do campus tours leave?", "10 a.m.", "/en/visit"],
])("answers %s from its page", (question, answer, path) => expectAnsweredFrom(site, question, answer, path));

it.each(["Какая погода на Марсе?", "ما هو سعر الذهب اليوم؟"])(
  "gives the fallback for %s, which no page is about",
  (question) => expectFallback(site, question),
);
