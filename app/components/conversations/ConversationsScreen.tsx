import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { CONVERSATION_SORT_LABELS } from "@contract/values/conversations";
import { Pagination } from "~/components/Pagination";
import { matchedText, narrowsList, triggerPointLabel } from "~/lib/conversations";
import type { loadConversations } from "~/server/conversations.server";
import * as ui from "~/styles/ui.css";
import { ConversationFilters } from "./ConversationFilters";
import { ConversationsTable } from "./ConversationsTable";
import * as s from "./conversations.css";

/** The export of the filters in the address: every page of them, so the page itself is left out. */
function exportHrefOf(listPath: string, search: string) {
  const params = new URLSearchParams(search);
  params.delete("page");
  params.delete("index");
  return `${listPath}/export${params.size ? `?${params}` : ""}`;
}

/** The order the rows are in, as the Sort filter names it ("oldest first"); latest first by default. */
const orderText = (sort: string) =>
  (Object.hasOwn(CONVERSATION_SORT_LABELS, sort)
    ? CONVERSATION_SORT_LABELS[sort as keyof typeof CONVERSATION_SORT_LABELS]
    : CONVERSATION_SORT_LABELS.latest
  ).toLowerCase();

/** The Conversations list of an agent or of the whole client: filters, the table, its pages and its CSV. */
export function ConversationsScreen() {
  const {
    client,
    agent,
    agentNames,
    listPath,
    values,
    fieldErrors,
    conversations,
    total,
    totalIsCapped,
    page,
    totalPages,
    filtersRefused,
    error,
  } = useLoaderData<typeof loadConversations>();
  const { search } = useLocation();
  const whose = agent ? `${agent.name} (${triggerPointLabel(agent.triggerPoint)})` : `every agent of ${client.name}`;
  // Nothing filtered out and still nothing: say how conversations come, not that the filters found none.
  const noneYet = total === 0 && !narrowsList(values);
  const testingPath = agent ? `${listPath.slice(0, -"/conversations".length)}/bot-testing` : null;
  return (
    <section>
      <h1>Conversations</h1>
      <p className={s.intro}>
        What visitors asked {whose} and what the assistant answered, {orderText(values.sort)}. Open one to read each
        answer with the sources it cited and why it came out as it did.
      </p>
      <ConversationFilters
        values={values}
        fieldErrors={fieldErrors}
        exportHref={filtersRefused ? null : exportHrefOf(listPath, search)}
      />
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : null}
      {filtersRefused ? (
        <p role="alert" className={ui.fieldError}>
          A filter above cannot be used as it is: change it and apply the filters again.
        </p>
      ) : (
        <>
          <p className={ui.muted} aria-live="polite">
            {noneYet ? "No conversations yet." : matchedText(total, totalIsCapped)}
          </p>
          <ConversationsTable
            conversations={conversations}
            listPath={listPath}
            agentNames={agent ? null : agentNames}
            emptyText={noneYet ? <NoneYet whose={whose} testingPath={testingPath} /> : undefined}
          />
          <Pagination page={page} totalPages={totalPages} countIsCapped={totalIsCapped} />
        </>
      )}
    </section>
  );
}

/** An empty list with nothing filtered: where conversations come from, and where to start one. */
function NoneYet({ whose, testingPath }: { whose: string; testingPath: string | null }) {
  return (
    <>
      No visitor has chatted with {whose} yet. Every chat with the assistant, on the client&apos;s site or on the test
      page of AI Testing, shows here
      {testingPath ? (
        <>
          : open <Link to={testingPath}>AI Testing</Link> to try it
        </>
      ) : null}
      .
    </>
  );
}
