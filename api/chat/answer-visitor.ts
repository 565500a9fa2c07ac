import type { ApiDeps } from "../deps";
import type { Environment } from "./keys";
import { captureProfile } from "./profile-capture";
import { respond } from "./responder";
import { storeAnswer } from "./store";

/** The client an embed key opened, and the trigger point its script names (one of the client's). */
export interface VisitorScope {
  appId: number;
  environment: Environment;
  clientType: string;
  triggerPoint: string;
}

/** A visitor's message once storeQuestion has stored it in its conversation. */
export interface StoredQuestion {
  conversationId: string;
  messageId: number;
  previousQuestion: string | null;
  message: string;
}

/**
 * What the chat call does with a stored question: reads what the visitor says of themselves into
 * their profile, composes the answer and stores it with its trace and the Insights counts. The
 * public chat call streams the answer it gives back; the demo's first conversations are asked
 * through it too, so they read as any visitor's.
 */
export async function answerVisitor(scope: VisitorScope, question: StoredQuestion, deps: ApiDeps) {
  const { appId, environment, triggerPoint, clientType } = scope;
  await captureProfile(
    { appId, conversationId: question.conversationId, messageId: question.messageId, message: question.message },
    deps,
  );
  const answer = await respond(
    {
      appId,
      environment,
      triggerPoint,
      message: question.message,
      clientType,
      previousQuestion: question.previousQuestion,
    },
    deps,
  );
  const stored = await storeAnswer(
    {
      conversationId: question.conversationId,
      appId,
      environment,
      triggerPoint,
      question: question.message,
    },
    answer,
    deps,
  );
  return { answer, messageId: stored.messageId };
}
