import {
  OkResult,
  TestGate,
  TestQuestion,
  TestQuestionCreated,
  TestQuestionsImported,
  TestQuestionsList,
  TestRun,
  TestRunQueued,
  TestRunsList,
  type TestQuestionCreate,
  type TestQuestionInput,
  type TestQuestionsImport,
} from "@contract";
import type { ApiClient } from "./client.server";

export interface TestQuestionsListQuery {
  trigger_point: string;
  page: number;
  page_size: number;
  search?: string;
  sort?: string;
  order?: "asc" | "desc";
}

/** Test questions, their runs and the production gate (`/v1/apps/{app_id}/test_…`). */
export const testingApi = {
  questions: (api: ApiClient, appId: number, query: TestQuestionsListQuery) =>
    api.get(TestQuestionsList, `/v1/apps/${appId}/test_questions`, { ...query }),
  question: (api: ApiClient, appId: number, id: number) =>
    api.get(TestQuestion, `/v1/apps/${appId}/test_questions/${id}`),
  add: (api: ApiClient, appId: number, input: TestQuestionCreate) =>
    api.post(TestQuestionCreated, `/v1/apps/${appId}/test_questions`, input),
  change: (api: ApiClient, appId: number, id: number, input: TestQuestionInput) =>
    api.put(TestQuestionCreated, `/v1/apps/${appId}/test_questions/${id}`, input),
  remove: (api: ApiClient, appId: number, id: number) =>
    api.call(OkResult, "DELETE", `/v1/apps/${appId}/test_questions/${id}`),
  importQuestions: (api: ApiClient, appId: number, body: TestQuestionsImport) =>
    api.post(TestQuestionsImported, `/v1/apps/${appId}/test_questions/import`, body),

  runs: async (api: ApiClient, appId: number, triggerPoint: string) =>
    (await api.get(TestRunsList, `/v1/apps/${appId}/test_runs`, { trigger_point: triggerPoint })).data,
  run: (api: ApiClient, appId: number, id: number) => api.get(TestRun, `/v1/apps/${appId}/test_runs/${id}`),
  startRun: (api: ApiClient, appId: number, triggerPoint: string, environment: "stage" | "prod") =>
    api.post(TestRunQueued, `/v1/apps/${appId}/test_runs`, { trigger_point: triggerPoint, environment }),
  gate: (api: ApiClient, appId: number, triggerPoint: string) =>
    api.get(TestGate, `/v1/apps/${appId}/test_gate`, { trigger_point: triggerPoint }),
};
