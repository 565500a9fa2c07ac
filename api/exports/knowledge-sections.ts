import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { TestQuestionInput, WebsiteInput } from "@contract";
import { testQuestions, websites } from "../db/schema";
import type { Executor } from "../controls/scope";
import type { ApiDeps } from "../deps";
import { plain } from "../testing/run-tests";
import { takesInOtherPages, websiteColumns } from "../knowledge/queries";
import { websiteKey } from "../knowledge/addresses";

/**
 * The knowledge store's websites as people set them (their pages are crawled again on the new
 * side, not copied) and each agent's test questions: without them an imported client had settings
 * and nothing to answer from, and no test of what its answers must do. Optional: older exports
 * have neither. Uploaded files are not in the file (decision 005): their tags are.
 */
export const WebsitesSection = z
  .array(WebsiteInput.omit({ id: true, app_id: true }).extend({ urls: WebsiteInput.shape.urls.unwrap().default([]) }))
  .max(1000)
  .default([]);

export const TestQuestionsSection = z.array(TestQuestionInput).max(10_000).default([]);

export async function exportKnowledgeSections(appId: number, deps: Pick<ApiDeps, "db">) {
  const sites = await deps.db.select().from(websites).where(eq(websites.appId, appId)).orderBy(asc(websites.id));
  const questions = await deps.db
    .select()
    .from(testQuestions)
    .where(eq(testQuestions.appId, appId))
    .orderBy(asc(testQuestions.id));
  return {
    websites: sites.map((site) => ({
      url: site.url,
      site_map: site.siteMap as z.output<typeof WebsitesSection>[number]["site_map"],
      enabled: site.enabled,
      tags: site.tags,
      skip_patterns: site.skipPatterns,
      allowed_patterns: site.allowedPatterns,
      urls: site.seedUrls,
    })),
    test_questions: questions.map((question) => ({
      trigger_point: question.triggerPoint,
      question: question.question,
      expect_source: question.expectSource,
      expect_text: question.expectText,
      expect_outcome: question.expectOutcome as z.output<typeof TestQuestionInput>["expect_outcome"],
    })),
  };
}

export const WEBSITE_TWICE_IN_FILE = "The same website is in another row of this file";

/**
 * The file's rows naming a website an earlier row names, keyed `websites.<n>.url`: two rows of one
 * website would make a second website (decision 043) or leave one row's settings quietly unused.
 */
export function repeatedWebsites(sites: readonly { url: string }[]) {
  const seen = new Set<string>();
  const errors: Record<string, string[]> = {};
  sites.forEach((site, index) => {
    const key = websiteKey(site.url);
    if (seen.has(key)) errors[`websites.${index}.url`] = [WEBSITE_TWICE_IN_FILE];
    seen.add(key);
  });
  return errors;
}

/**
 * The client's website each of the file's websites is, or undefined: the same address as
 * decision 043 compares them (scheme and host in any case, a trailing slash, a default port), not
 * only written the same way; of twins stored before that rule, the first.
 */
export async function websitesOfFile(appId: number, sites: readonly { url: string }[], db: Executor) {
  if (!sites.length) return [];
  const rows = await db.select().from(websites).where(eq(websites.appId, appId)).orderBy(asc(websites.id));
  const byKey = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!byKey.has(websiteKey(row.url))) byKey.set(websiteKey(row.url), row);
  return sites.map((site) => byKey.get(websiteKey(site.url)));
}

/**
 * Adds the websites the client does not have (by address) and updates the settings of those it
 * has, keeping the address as the client wrote it, answering those to discover (new, or changed in
 * what they take in); adds the test questions each agent does not have yet (compared as a reader
 * would, as adding one compares them).
 */
export async function importKnowledgeSections(
  appId: number,
  file: { websites: z.output<typeof WebsitesSection>; test_questions: z.output<typeof TestQuestionsSection> },
  tx: Executor,
) {
  const toDiscover: number[] = [];
  const created: number[] = [];
  const matched = await websitesOfFile(appId, file.websites, tx);
  for (const [index, site] of file.websites.entries()) {
    const same = matched[index];
    const values = { ...websiteColumns(site), ...(same ? { url: same.url } : {}) };
    if (!same) {
      const [added] = await tx
        .insert(websites)
        .values({ ...values, appId })
        .returning({ id: websites.id });
      created.push(added.id);
      toDiscover.push(added.id);
      continue;
    }
    const rediscover = takesInOtherPages(same, values);
    await tx
      .update(websites)
      .set({
        ...values,
        ...(rediscover ? { status: "pending_sitemap_generation", claimedBy: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(websites.id, same.id));
    if (rediscover) toDiscover.push(same.id);
  }
  const fresh = await freshTestQuestions(appId, file.test_questions, tx);
  if (fresh.length)
    await tx.insert(testQuestions).values(
      fresh.map((question) => ({
        appId,
        triggerPoint: question.trigger_point,
        question: question.question,
        expectSource: question.expect_source,
        expectText: question.expect_text,
        expectOutcome: question.expect_outcome,
      })),
    );
  return { websitesCreated: created, websitesToDiscover: toDiscover };
}

/**
 * The file's test questions each agent does not have yet, compared as a reader would (as adding
 * one compares them), a question the file repeats once. What the import adds, and what History
 * records it added.
 */
export async function freshTestQuestions(
  appId: number,
  questions: z.output<typeof TestQuestionsSection>,
  db: Executor,
) {
  if (!questions.length) return [];
  const known = new Map<string, Set<string>>();
  const kept = await db
    .select({ triggerPoint: testQuestions.triggerPoint, question: testQuestions.question })
    .from(testQuestions)
    .where(eq(testQuestions.appId, appId));
  for (const row of kept) {
    if (!known.has(row.triggerPoint)) known.set(row.triggerPoint, new Set());
    known.get(row.triggerPoint)!.add(plain(row.question));
  }
  return questions.filter((question) => {
    const asked = known.get(question.trigger_point) ?? new Set<string>();
    known.set(question.trigger_point, asked);
    if (asked.has(plain(question.question))) return false;
    asked.add(plain(question.question));
    return true;
  });
}
