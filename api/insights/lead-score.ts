/**
 * The lead score (0–100), simple enough to explain beside every score:
 * - a way to reach the person: email +30, phone +20 (either makes the profile a lead);
 * - their name +10;
 * - every other field of the user profile they told the assistant +8, up to +24;
 * - engagement: +2 per question they asked, up to +16.
 * The fields part is computed as values are captured; engagement is added from the conversation.
 */
export const LEAD_SCORE_RULE =
  "Email +30, phone +20, name +10, each other profile field +8 (up to 24), each question asked +2 (up to 16); at most 100.";

const isEmailField = (name: string) => /e-?mail/i.test(name);
const isPhoneField = (name: string) => /phone|mobile/i.test(name);
const isNameField = (name: string) => /(^|[\s_])(first[\s_]|full[\s_])?name$/i.test(name);

export function fieldScore(values: Record<string, unknown>) {
  const filled = Object.keys(values).filter(
    (name) => values[name] !== null && values[name] !== undefined && String(values[name]).trim() !== "",
  );
  const email = filled.some(isEmailField);
  const phone = filled.some(isPhoneField);
  const others = filled.filter((name) => !isEmailField(name) && !isPhoneField(name) && !isNameField(name)).length;
  const parts: [boolean, number, string][] = [
    [email, 30, "email"],
    [phone, 20, "phone"],
    [filled.some(isNameField), 10, "name"],
    [others > 0, Math.min(24, others * 8), `${others} other field${others === 1 ? "" : "s"}`],
  ];
  const earned = parts.filter(([has]) => has);
  return {
    score: earned.reduce((sum, [, points]) => sum + points, 0),
    reasons: earned.map(([, points, what]) => `${what} +${points}`),
    isLead: email || phone,
  };
}

export const engagementPoints = (questions: number) => Math.min(16, 2 * Math.max(0, questions));

/** The whole score and why, for one profile. */
export function leadScore(values: Record<string, unknown>, questions: number) {
  const fields = fieldScore(values);
  const engagement = engagementPoints(questions);
  const reasons = engagement
    ? [...fields.reasons, `${questions} question${questions === 1 ? "" : "s"} +${engagement}`]
    : fields.reasons;
  return { score: Math.min(100, fields.score + engagement), reasons, isLead: fields.isLead };
}

/** The same total in SQL, for sorting and aggregating without reading every profile (f: field_score, q: question_count). */
export const LEAD_SCORE_SQL = (fieldScoreColumn: string, questionsColumn: string) =>
  `least(100, ${fieldScoreColumn} + least(16, 2 * greatest(${questionsColumn}, 0)))`;
