import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import type { InsightChart } from "@contract/values/insights";
import type { InsightDay } from "@contract";
import type { dashboardAction, dashboardLoader } from "~/server/insights.server";
import * as ui from "~/styles/ui.css";
import { DayBars, RankBars, type Series } from "./charts";
import * as s from "./insights.css";
import { ScopeFilters } from "./ScopeFilters";
import type { GapLinks } from "~/lib/insights-gaps";
import { conversationsAskingPath, type AskedInScope } from "~/lib/insights-conversations";
import { GapList, type Gap } from "./GapList";
import { finetuningPathFor } from "~/lib/trigger-points";
import { UnhelpfulList } from "./UnhelpfulList";
import { useCanConfigure } from "~/lib/user";
import { profilePathOf } from "~/lib/conversations";
import { urlRowPath } from "~/lib/urls";

const OUTCOMES: Series<InsightDay>[] = [
  { key: "answered", label: "Answered", color: "#16a34a" },
  { key: "fallback", label: "Fallback", color: "#d97706" },
  { key: "canned", label: "Canned (no-go)", color: "#dc2626" },
  { key: "disclaimed", label: "Disclaimed (sensitive)", color: "#7c3aed" },
  { key: "small_talk", label: "Small talk", color: "#64748b" },
];

/**
 * A chart's panel: its title, its 'Download CSV' (a POST form: works without JavaScript), the chart.
 * The file is kept in Admin Downloads, which a read-only Client may not add to: they get no button
 * (and the server refuses their post all the same).
 */
function Panel({ title, chart, children }: { title: string; chart: InsightChart; children: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  const { client } = useLoaderData<typeof dashboardLoader>();
  const canDownload = useCanConfigure(client.id);
  const busy = navigation.state === "submitting" && navigation.formData?.get("chart") === chart;
  // Why this chart's CSV was not sent, when the page came back instead (too many exports in a minute).
  const refused = useActionData<typeof dashboardAction>();
  const refusal = refused && refused.chart === chart ? refused.message : null;
  return (
    <section className={s.panel} aria-labelledby={`chart-${chart}`}>
      <div className={s.panelHeader}>
        <h2 id={`chart-${chart}`}>{title}</h2>
        {canDownload ? (
          <Form method="post" action={`${location.pathname}${location.search}`} reloadDocument>
            <input type="hidden" name="chart" value={chart} />
            <button type="submit" className={ui.button.link} disabled={busy}>
              Download CSV<span className={ui.visuallyHidden}> of {title}</span>
            </button>
          </Form>
        ) : null}
      </div>
      {refusal ? (
        <p role="alert" className={ui.fieldError}>
          {refusal}
        </p>
      ) : null}
      {children}
    </section>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className={s.empty}>{children}</p>;

function DayTable({ rows, columns }: { rows: InsightDay[]; columns: Series<InsightDay>[] }) {
  return (
    <div className={ui.tableScroll} tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {columns.map((c) => (
              <th scope="col" key={c.key}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.day}>
              <td>{row.day}</td>
              {columns.map((c) => (
                <td key={c.key}>{row[c.key]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Business Insights for one client: totals, conversations over time, outcomes, top and
 * unanswered questions (each linking to the conversations that asked it; an unanswered one to the
 * knowledge store too, where the missing page can be added or indexed), the answers visitors rated
 * unhelpful (each linking to its conversation), leads with their scores, and the sources cited most.
 */
export function Dashboard() {
  const { client, filters, insights, error, fieldErrors, triggerPointError } = useLoaderData<typeof dashboardLoader>();
  const { search: address } = useLocation();
  const { totals, days, unhelpful } = insights;
  const shownAgent = client.agents.find((a) => a.siteCode === filters.trigger_point);
  const agent = shownAgent ?? client.agents[0];
  // A question's conversations: those of the agent shown, or of the whole client when all are.
  const askedIn: AskedInScope = {
    urlCode: client.urlCode,
    agentPath: shownAgent?.path ?? null,
    range: insights.range,
    environment: filters.environment,
  };
  const storeOf = (shown: typeof agent) => (shown ? `${shown.path}/knowledge-store/websites` : null);
  const filesOf = (shown: typeof agent) => (shown ? `${shown.path}/knowledge-store/files` : null);
  // Each unanswered question's links go to the agent it was last asked of, its store to the agent
  // shown for Default's; its threshold is the one that question was answered under, Default's own.
  const gapLinksOf = (gap: Gap): GapLinks => {
    const asked = client.agents.find((a) => a.siteCode === gap.trigger_point) ?? agent;
    return {
      conversations: conversationsAskingPath(askedIn, gap.asked_as, true),
      store: storeOf(asked),
      files: filesOf(asked),
      // Own keys only: a trigger point named like an object's property ("constructor") is not one.
      qualityCheck: Object.hasOwn(client.qualityChecks, gap.trigger_point)
        ? client.qualityChecks[gap.trigger_point]
        : client.qualityChecks[""],
      finetuning: finetuningPathFor({ url_code: client.urlCode }),
    };
  };
  const sourcesStore = storeOf(agent);
  const rangeError = fieldErrors.from?.[0] ?? fieldErrors.to?.[0] ?? null;
  const canConfigure = useCanConfigure(client.id);
  return (
    <section>
      <h1>Business Insights</h1>
      <p className={s.intro}>
        What {client.name}'s assistant was asked and how it answered, {insights.range.from} to {insights.range.to} (UTC
        days).
      </p>
      {/* Keyed by the address: Back and Forward show the filters of the figures they show. */}
      <Form key={address} method="get" className={s.filters} aria-label="Filters">
        <div className={s.filterField}>
          <label htmlFor="insights-from" className={ui.label}>
            From
          </label>
          <input
            id="insights-from"
            type="date"
            name="from"
            defaultValue={filters.from ?? insights.range.from}
            className={ui.input}
            {...(rangeError ? { "aria-invalid": true, "aria-describedby": "insights-range-error" } : {})}
          />
        </div>
        <div className={s.filterField}>
          <label htmlFor="insights-to" className={ui.label}>
            To
          </label>
          <input
            id="insights-to"
            type="date"
            name="to"
            defaultValue={filters.to ?? insights.range.to}
            className={ui.input}
          />
        </div>
        <ScopeFilters
          idPrefix="insights"
          triggerPoints={client.triggerPoints}
          triggerPoint={filters.trigger_point}
          triggerPointError={triggerPointError}
          environment={filters.environment}
        />
        <button type="submit" className={ui.button.primary}>
          Apply
        </button>
      </Form>
      {rangeError ? (
        <p id="insights-range-error" role="alert" className={ui.fieldError}>
          {rangeError} (showing the last 30 days)
        </p>
      ) : error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : null}

      <dl className={s.totals} aria-label="Totals">
        {(
          [
            ["Conversations", totals.conversations],
            ["Questions", totals.questions],
            ["Answered", totals.answered],
            ["Fallback", totals.fallback],
            ["Canned (no-go)", totals.canned],
            ["Disclaimed (sensitive)", totals.disclaimed],
            ["Small talk", totals.small_talk],
            ["Leads", totals.leads],
          ] as const
        ).map(([name, value]) => (
          <div key={name} className={s.total}>
            <dt>{name}</dt>
            <dd>{value.toLocaleString("en-US")}</dd>
          </div>
        ))}
      </dl>

      <div className={s.grid}>
        <Panel title="Conversations over time" chart="conversations">
          <DayBars
            label={`Conversations per day: ${totals.conversations} in all`}
            rows={days}
            series={[{ key: "conversations", label: "Conversations", color: "#2563eb" }]}
            figures={
              <DayTable
                rows={days}
                columns={[
                  { key: "conversations", label: "Conversations", color: "" },
                  { key: "questions", label: "Questions", color: "" },
                ]}
              />
            }
          />
        </Panel>
        <Panel title="Answers by outcome" chart="outcomes">
          <DayBars
            label={`Answers per day by outcome: ${totals.answered} answered, ${totals.fallback} fallback, ${totals.canned} canned, ${totals.disclaimed} disclaimed, ${totals.small_talk} small talk`}
            rows={days}
            series={OUTCOMES}
            figures={<DayTable rows={days} columns={OUTCOMES} />}
          />
        </Panel>
        <Panel title="Top questions" chart="top_questions">
          {insights.top_questions.length ? (
            <RankBars
              label="The questions asked most"
              columns={["Question", "Asked", "Unanswered"]}
              items={insights.top_questions.map((q) => ({
                label: q.asked_as,
                value: q.asked,
                note: q.unanswered ? `${q.unanswered} unanswered` : undefined,
                more: q.unanswered,
                link: { to: conversationsAskingPath(askedIn, q.asked_as), hint: "the conversations that asked it" },
              }))}
            />
          ) : (
            <Empty>No questions in this range.</Empty>
          )}
        </Panel>
        <Panel title="Unanswered questions" chart="unanswered_questions">
          {insights.unanswered_questions.length ? (
            <GapList gaps={insights.unanswered_questions} linksOf={gapLinksOf} canConfigure={canConfigure} />
          ) : (
            <Empty>
              {totals.questions ? "Every question in this range got an answer." : "No questions in this range."}
            </Empty>
          )}
        </Panel>
        <Panel title="Answers rated unhelpful" chart="unhelpful_answers">
          <p>
            {unhelpful.total === 1 ? "1 answer" : `${unhelpful.total.toLocaleString("en-US")} answers`} rated unhelpful
            (thumbs down) by visitors
            {unhelpful.total > unhelpful.answers.length ? `; the latest ${unhelpful.answers.length}:` : "."}
          </p>
          {unhelpful.answers.length ? (
            <UnhelpfulList
              answers={unhelpful.answers}
              urlCode={client.urlCode}
              agentNames={new Map(client.agents.map((a) => [a.siteCode, a.name]))}
            />
          ) : (
            <Empty>No answer was rated unhelpful in this range.</Empty>
          )}
        </Panel>
        <Panel title="Leads" chart="leads">
          <DayBars
            label={`Leads captured per day: ${insights.leads.captured} in all`}
            rows={days}
            series={[{ key: "leads", label: "Leads", color: "#0891b2" }]}
            figures={<DayTable rows={days} columns={[{ key: "leads", label: "Leads", color: "" }]} />}
          />
          <p>
            {insights.leads.captured} captured
            {insights.leads.average_score !== null ? `, average score ${insights.leads.average_score}` : ""}.
          </p>
          {insights.leads.top.length ? (
            <div className={ui.tableScroll} tabIndex={0}>
              <table aria-label="Top leads" className={ui.denseTable}>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Contact</th>
                    <th scope="col">Score</th>
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {insights.leads.top.map((lead) => (
                    <tr key={lead.conversation_id}>
                      <td>
                        <Link to={profilePathOf(client.urlCode, lead.conversation_id)}>{lead.name || "(no name)"}</Link>
                      </td>
                      <td>{lead.contact}</td>
                      <td>{lead.score}</td>
                      <td>
                        {lead.reasons.map((reason, index) => (
                          <Fragment key={reason}>
                            {index ? ", " : ""}
                            <span className={s.leadReason}>{reason}</span>
                          </Fragment>
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          <p className={s.scoreRule}>Score: {insights.lead_score_rule}</p>
        </Panel>
        <Panel title="Sources cited most" chart="sources">
          {insights.top_sources.length ? (
            <RankBars
              label="The pages answers cited most"
              columns={["Page", "Cited", "Address"]}
              items={insights.top_sources.map((src) => ({
                label: src.title || src.url,
                value: src.cited,
                note: src.url,
                more: src.url,
                // Where the page's status, its passages and a new indexing of it are.
                link: sourcesStore
                  ? {
                      to: urlRowPath(sourcesStore, src.url),
                      hint: "the page in the knowledge store",
                    }
                  : undefined,
              }))}
            />
          ) : (
            <Empty>No answer cited a page in this range.</Empty>
          )}
        </Panel>
      </div>
    </section>
  );
}
