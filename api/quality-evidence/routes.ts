import { z } from "zod";
import {
  IdParam,
  QUALITY_CHECK,
  ThresholdEvidence,
  ThresholdEvidenceQuery,
  type QualityCheckSettings,
} from "@contract";
import { requireApp } from "../auth/permissions";
import { singleControls } from "../controls/controls";
import { clientScope, unknownTriggerPoint } from "../controls/scope";
import type { ApiDeps } from "../deps";
import { badRequest } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { thresholdPoints } from "./replay";
import { ratedAnswerSamples, testResultSamples, RATED_ANSWERS_REPLAYED } from "./samples";

const AppParams = z.object({ appId: IdParam });

/**
 * What each Minimum Retrieval Confidence of EVIDENCE_THRESHOLDS would do to one agent's questions
 * (docs/decisions/029): its latest finished test runs and latest rated answers, replayed on the
 * best passage's score recorded when each was asked (the rule is in ./replay.ts).
 */
export async function thresholdEvidence(
  appId: number,
  triggerPoint: string,
  deps: Pick<ApiDeps, "db">,
): Promise<ThresholdEvidence> {
  const { clientType, triggerPoints } = await clientScope(appId, deps.db);
  if (!triggerPoints.has(triggerPoint)) {
    const message = unknownTriggerPoint(triggerPoint);
    throw badRequest(message, { trigger_point: [message] });
  }
  const [quality] = await singleControls(appId, triggerPoint, [QUALITY_CHECK], clientType, deps.db);
  const tests = await testResultSamples(appId, triggerPoint, deps);
  const rated = await ratedAnswerSamples(appId, triggerPoint, deps);
  return {
    current: (quality.metadata as QualityCheckSettings).min_retrieval_confidence,
    test_results: tests.length,
    rated_answers: rated.length,
    points: thresholdPoints([...tests, ...rated]),
  };
}

export function qualityEvidenceRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/apps/:appId/quality_check/evidence",
    tag: "Controls",
    summary:
      "What each Minimum Retrieval Confidence from 0.02 to 0.9 would do to a trigger point's questions: how many would be answered, " +
      "get the fallback and meet their expectation, replayed on its latest finished stage and prod test runs and its latest " +
      `${RATED_ANSWERS_REPLAYED.toLocaleString("en")} rated answers (canned answers left out), beside the value in force.`,
    params: AppParams,
    query: ThresholdEvidenceQuery,
    response: ThresholdEvidence,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      return thresholdEvidence(params.appId, query.trigger_point, deps);
    },
  });
}
