import { and, eq, inArray, sql } from "drizzle-orm";
import { clientScope } from "../controls/scope";
import { DEMO_TESTED_AGENT, DEMO_VISITS } from "../db/demo-site";
import { conversations, urls, websites } from "../db/schema";
import type { WorkerDeps } from "../deps";
import { answerVisitor, type VisitorScope } from "./answer-visitor";
import { rateAnswer } from "./feedback";
import { storeQuestion } from "./store";

/** The demo site is looked at every 5 s, for ten minutes at most: indexing it takes seconds. */
export const DEMO_LOOK_AGAIN_SECONDS = 5;
export const DEMO_LOOKS = 120;

/** Statuses that say the demo site's first indexing is still under way. */
const BEING_INDEXED = ["pending_review", "to_be_indexed", "sent_for_indexing"];

/** Whether the website's sitemap is read and every page it listed has been indexed or has failed. */
async function indexingDone(websiteId: number, deps: WorkerDeps) {
  const [counts] = await deps.db
    .select({
      indexed: sql<number>`count(*) filter (where ${urls.status} = 'indexed')`.mapWith(Number),
      waiting: sql<number>`count(*) filter (where ${inArray(urls.status, BEING_INDEXED)})`.mapWith(Number),
    })
    .from(urls)
    .where(eq(urls.websiteId, websiteId));
  return counts.indexed > 0 && counts.waiting === 0;
}

/**
 * The demo's first conversations (DEMO_VISITS), asked once the demo site is indexed: through the
 * chat's own path, so each answer has the trace, the Insights counts and the profile a visitor's
 * would. Until the site is indexed it sends itself again for later.
 */
export async function holdDemoConversations(
  { websiteId, attempt }: { websiteId: number; attempt: number },
  deps: WorkerDeps,
) {
  const [website] = await deps.db.select({ appId: websites.appId }).from(websites).where(eq(websites.id, websiteId));
  if (!website) return { conversations: "none: the demo website is gone" };
  // A job tried again after it had asked them must not ask them twice.
  const [asked] = await deps.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.appId, website.appId), eq(conversations.lastQuestion, DEMO_VISITS[0].messages.at(-1)!)))
    .limit(1);
  if (asked) return { conversations: "none: the demo's visitors have chatted already" };
  if (!(await indexingDone(websiteId, deps))) {
    if (attempt >= DEMO_LOOKS) return { conversations: "none: the demo site was not indexed in time" };
    await deps.jobs.send(
      "demo-conversations",
      { websiteId, attempt: attempt + 1 },
      { startAfterSeconds: DEMO_LOOK_AGAIN_SECONDS },
    );
    return { conversations: "later: the demo site is still being indexed" };
  }
  const { clientType } = await clientScope(website.appId, deps.db);
  const scope: VisitorScope = {
    appId: website.appId,
    environment: "stage",
    clientType,
    triggerPoint: DEMO_TESTED_AGENT,
  };
  for (const visit of DEMO_VISITS) {
    let conversationId: string | undefined;
    let answerId = 0;
    for (const message of visit.messages) {
      const question = await storeQuestion(
        { conversation_id: conversationId, message },
        scope,
        scope.triggerPoint,
        deps,
      );
      conversationId = question.conversationId;
      answerId = (await answerVisitor(scope, { ...question, message }, deps)).messageId;
    }
    if (visit.rating && conversationId) {
      await rateAnswer({ conversationId, messageId: answerId, ...visit.rating }, scope, deps);
    }
  }
  return { conversations: DEMO_VISITS.length };
}
