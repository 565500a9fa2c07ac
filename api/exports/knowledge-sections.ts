import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { TestQuestionInput, WebsiteInput } from "@contract";
import { testQuestions, websites } from "../db/schema";
import type { Executor } from "../controls/scope";
import type { ApiDeps } from "../deps";
import { plain } from "../testing/run-tests";
import { takesInOtherPages, websiteColumns } from "../knowledge/queries";

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

/**
 * Adds the websites the client does not have (by address) and updates the settings of those it
 * has, answering those to discover (new, or changed in what they take in); adds the test questions
 * each agent does not have yet (compared as a reader would, as adding one compares them).
 */
export async function importKnowledgeSections(
  appId: number,
  file: { websites: z.output<typeof WebsitesSection>; test_questions: z.output<typeof TestQuestionsSection> },
  tx: Executor,
) {
  const toDiscover: number[] = [];
  const created: number[] = [];
  for (const site of file.websites) {
    const values = websiteColumns(site);
    const [same] = await tx
      .select()
      .from(websites)
      .where(and(eq(websites.appId, appId), eq(websites.url, site.url)));
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
