import type { ClientApp, TestGate } from "@contract";
import { ACCEPT_FAILING_FIELD } from "~/lib/accept-failing";
import { triggerPointName, triggerPointsOf } from "~/lib/trigger-points";
import type { ApiClient } from "./api/client.server";
import { testingApi } from "./api/testing-api.server";

/** The agents whose last stage run fails questions their last production run passes. */
export interface KnowledgeGate {
  /** Each agent by its trigger point and the name people know it by ("Default" for the client's). */
  agents: { triggerPoint: string; name: string; gate: TestGate }[];
  /** Names the stage runs shown, so a confirmation holds only for what the operator saw. */
  acceptKey: string;
}

/**
 * The gate for a change that makes knowledge answer in production (a website tagged Production, a
 * file tagged production). Knowledge is the client's, so every agent's questions count. Null when
 * no agent's stage run fails what production passes, or when `form` accepts exactly these runs.
 */
export async function knowledgeGate(api: ApiClient, app: ClientApp, form: FormData): Promise<KnowledgeGate | null> {
  const triggerPoints = ["", ...triggerPointsOf(app)];
  const gates = await Promise.all(
    triggerPoints.map(async (triggerPoint) => ({
      triggerPoint,
      name: triggerPointName(app, triggerPoint),
      gate: await testingApi.gate(api, app.id, triggerPoint),
    })),
  );
  const agents = gates.filter(({ gate }) => gate.stage && gate.stage_fails_prod_passes.length);
  if (!agents.length) return null;
  const acceptKey = agents
    .map(({ gate }) => gate.stage!.id)
    .sort((a, b) => a - b)
    .join("-");
  return form.get(ACCEPT_FAILING_FIELD) === acceptKey ? null : { agents, acceptKey };
}

export const GATE_MESSAGE =
  "Stage fails test questions that production passes: they are listed above the table. Save again to go ahead.";
