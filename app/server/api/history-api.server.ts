import { HistoryList, HistoryRestored, type HistoryQuery, type RestoreState } from "@contract";
import type { ApiClient } from "./client.server";

/** A client's configuration history, and writing a recorded state back: the one a change led to ("after") or the one before ("before"). */
export const historyApi = {
  list: (api: ApiClient, appId: number, query: HistoryQuery) =>
    api.get(HistoryList, `/v1/apps/${appId}/history`, query as Record<string, string | number | undefined>),
  /** `laterChanges`: how many later changes the person was shown for this state; the API refuses when there are more now. */
  restore: (api: ApiClient, appId: number, id: number, state: RestoreState, laterChanges?: number) =>
    api.post(HistoryRestored, `/v1/apps/${appId}/history/${id}/restore`, { state, later_changes: laterChanges }),
};
