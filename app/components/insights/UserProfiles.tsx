import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { cutText } from "@contract/text";
import { INSIGHT_ENVIRONMENT_LABELS } from "@contract/values/insights";
import type { UserProfileDetail } from "@contract";
import { Drawer } from "~/components/Drawer";
import { Pagination } from "~/components/Pagination";
import { useFocusOnSwap } from "~/components/useFocusOnSwap";
import { useAddress } from "~/components/useAddress";
import { formatDateTime, formatDateTimeUtc } from "~/lib/dates";
import { countOf } from "~/lib/format";
import { TABLE_PAGE_SIZES } from "~/lib/table-view";
import type { userProfilesLoader } from "~/server/user-profiles.server";
import * as ui from "~/styles/ui.css";
import * as s from "./insights.css";
import { ScopeFilters } from "./ScopeFilters";
import { outcomeChipLabel, transcriptPathOf } from "~/lib/conversations";

const show = (value: unknown) =>
  value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);

const DELETE_LINK_ID = "delete-person";
const DELETE_CANCEL_ID = "delete-person-cancel";

/** One profile: its values (each with the message it came from), its score and why, and the whole conversation. */
function ProfileDrawer({
  detail,
  urlCode,
  closeTo,
  canDelete,
  confirmingDelete,
  deleteTo,
  cancelDeleteTo,
}: {
  detail: UserProfileDetail;
  /** The client's address code: its Conversations screen holds the transcript. */
  urlCode: string;
  closeTo: string;
  canDelete: boolean;
  confirmingDelete: boolean;
  deleteTo: string;
  cancelDeleteTo: string;
}) {
  const { profile, messages, field_sources } = detail;
  const saidIn = (field: string) => messages.find((m) => m.id === field_sources[field]);
  // The question opens where its link was, and the link comes back on Cancel: focus follows, to Cancel
  // (the choice that loses nothing) or to the link.
  useFocusOnSwap(confirmingDelete ? DELETE_CANCEL_ID : DELETE_LINK_ID, confirmingDelete, canDelete);
  return (
    <Drawer
      title={
        <>
          Profile{" "}
          <bdi>
            {show(
              profile.values.name ??
                profile.values.first_name ??
                profile.values.email ??
                profile.conversation_id.slice(0, 8),
            )}
          </bdi>
        </>
      }
      size="medium"
      closeTo={closeTo}
    >
      <p>
        Score <strong>{profile.score}</strong> ({profile.reasons.join(", ") || "nothing captured yet"}) ·{" "}
        {countOf(profile.questions, "question")} · {profile.trigger_point || "Default"} ·{" "}
        {INSIGHT_ENVIRONMENT_LABELS[profile.environment as "prod" | "stage"] ?? profile.environment}
      </p>
      <div className={ui.tableScroll} tabIndex={0}>
        <table aria-label="Captured values">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">Said in</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(profile.values).map(([field, value]) => (
              <tr key={field}>
                <td>{field}</td>
                <td>{show(value)}</td>
                <td>
                  {saidIn(field) ? (
                    <a href={`#message-${field_sources[field]}`}>
                      “<bdi>{cutText(saidIn(field)!.text, 60)}</bdi>”
                    </a>
                  ) : (
                    ""
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Conversation</h3>
      <p>
        <Link to={transcriptPathOf(urlCode, profile.conversation_id)}>Read it in Conversations</Link>, with each
        answer&apos;s sources and why it came out as it did.
      </p>
      <ol aria-label="Conversation">
        {messages.map((m) => (
          <li key={m.id} id={`message-${m.id}`}>
            <strong>{m.role === "user" ? "Visitor" : "Assistant"}</strong>
            {m.outcome ? <span className={ui.muted}> ({outcomeChipLabel(m.outcome)})</span> : null}{" "}
            <span className={ui.muted}>{formatDateTimeUtc(m.created_at)}</span>
            <p>{m.text}</p>
          </li>
        ))}
      </ol>
      {canDelete ? (
        confirmingDelete ? (
          <Form method="post" className={s.panel} aria-label="Delete this person's data">
            <input type="hidden" name="profile_id" value={profile.conversation_id} />
            <p role="alert">
              <strong>Delete this person's data?</strong> Their profile, every other profile with the same email or
              phone, and their conversations are removed for good, and the dashboard is recounted without them.
            </p>
            <div className={ui.toolbar}>
              <Link to={cancelDeleteTo} id={DELETE_CANCEL_ID} className={ui.button.secondary}>
                Cancel
              </Link>
              <button type="submit" name="intent" value="delete" className={ui.button.danger}>
                Delete everything about this person
              </button>
            </div>
          </Form>
        ) : (
          <Link to={deleteTo} id={DELETE_LINK_ID} className={ui.button.danger}>
            Delete this person's data
          </Link>
        )
      ) : null}
    </Drawer>
  );
}

/** The user profile store: what the assistant captured, searchable and filterable by address, with export and deletion on request. */
export function UserProfiles() {
  const {
    client,
    filters,
    list,
    error,
    triggerPointError,
    detail,
    profileError,
    confirmingDelete,
    canDelete,
    exportMaxRows,
  } = useLoaderData<typeof userProfilesLoader>();
  const location = useLocation();
  const address = useAddress();
  const exportParams = new URLSearchParams(location.search);
  for (const key of ["profile", "delete", "page"]) exportParams.delete(key);
  const fields = list ? [...new Set([...list.fields, ...list.data.flatMap((row) => Object.keys(row.values))])] : [];
  const totalPages = list ? Math.max(1, Math.ceil(list.total / filters.page_size)) : 1;
  return (
    <section>
      <h1>User Profile Store</h1>
      <p className={s.intro}>
        What {client.name}'s visitors told the assistant about themselves, by the fields of its user profile data model.
      </p>
      {/* Keyed by the address: Back and Forward show the filters of the profiles they show. */}
      <Form key={location.search} method="get" className={s.filters} aria-label="Filters">
        <div className={s.filterField}>
          <label htmlFor="profiles-search" className={ui.label}>
            Search
          </label>
          <input
            id="profiles-search"
            type="search"
            name="search"
            defaultValue={filters.search ?? ""}
            className={ui.input}
            placeholder="Name, email, any value"
          />
        </div>
        <ScopeFilters
          idPrefix="profiles"
          triggerPoints={client.triggerPoints}
          triggerPoint={filters.trigger_point}
          triggerPointError={triggerPointError}
          environment={filters.environment}
        />
        <div className={s.filterField}>
          <label htmlFor="profiles-page-size" className={ui.label}>
            Rows per page
          </label>
          <select
            id="profiles-page-size"
            name="page_size"
            defaultValue={String(filters.page_size)}
            className={ui.input}
          >
            {TABLE_PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <label>
          <input type="checkbox" name="leads_only" value="true" defaultChecked={filters.leads_only === "true"} /> Leads
          only
        </label>
        <button type="submit" className={ui.button.primary}>
          Apply
        </button>
        <a
          href={`/backoffice/${client.urlCode}/user_profiles/export${exportParams.size ? `?${exportParams}` : ""}`}
          className={ui.button.secondary}
          download
        >
          Export CSV
        </a>
      </Form>
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : null}
      {profileError ? (
        <p role="alert" className={ui.fieldError}>
          {profileError}
        </p>
      ) : null}
      {list ? (
        <>
          <p className={ui.muted}>
            {list.total.toLocaleString("en-US")} profile{list.total === 1 ? "" : "s"}. Score: {list.lead_score_rule}
          </p>
          {list.total > exportMaxRows ? (
            <p className={ui.muted}>
              Export CSV holds the newest {exportMaxRows.toLocaleString("en-US")} of them: narrow the filters for the
              others.
            </p>
          ) : null}
          <div className={s.panel}>
            <div className={ui.tableScroll} tabIndex={0}>
              <table aria-label="Profiles">
                <thead>
                  <tr>
                    {fields.map((f) => (
                      <th scope="col" key={f}>
                        {f}
                      </th>
                    ))}
                    <th scope="col">Score</th>
                    <th scope="col">Questions</th>
                    <th scope="col">Trigger point</th>
                    <th scope="col">Started (UTC)</th>
                    <th scope="col">
                      <span className={ui.visuallyHidden}>Open</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.length ? (
                    list.data.map((row) => (
                      <tr key={row.conversation_id}>
                        {fields.map((f) => (
                          <td key={f}>{show(row.values[f])}</td>
                        ))}
                        <td title={row.reasons.join(", ")}>
                          {row.score}
                          {row.lead ? <span className={ui.chip.success}> lead</span> : null}
                        </td>
                        <td>{row.questions}</td>
                        <td>
                          {row.trigger_point || "Default"} · {row.environment}
                        </td>
                        <td className={ui.dateTimeCell}>{formatDateTime(row.started_at)}</td>
                        <td>
                          <Link to={address({ profile: row.conversation_id, delete: null })} preventScrollReset>
                            View<span className={ui.visuallyHidden}> profile {row.conversation_id}</span>
                          </Link>
                        </td>
                      </tr>
                    ))
                  ) : (
                    <tr>
                      <td colSpan={fields.length + 5} className={s.empty}>
                        No profiles match.
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          </div>
          <Pagination page={filters.page} totalPages={totalPages} />
        </>
      ) : null}
      {detail ? (
        <ProfileDrawer
          detail={detail}
          urlCode={client.urlCode}
          closeTo={address({ profile: null, delete: null })}
          canDelete={canDelete}
          confirmingDelete={confirmingDelete}
          deleteTo={address({ delete: "1" })}
          cancelDeleteTo={address({ delete: null })}
        />
      ) : null}
    </section>
  );
}
