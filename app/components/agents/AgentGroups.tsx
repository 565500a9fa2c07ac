import { Link } from "@remix-run/react";
import type { AgentSummary } from "@contract";
import { agentTypeLabel, type AgentGroup } from "~/lib/agent-form";
import { agentSegment } from "~/lib/clients";
import { titleCase } from "~/lib/text";
import * as s from "./agents.css";
import { AgentLogo } from "./AgentLogo";

export const CREATE_NEW_AGENT = "Create New Agent";

interface GroupsProps {
  urlCode: string;
  groups: AgentGroup<AgentSummary>[];
  /** Users who may configure the client get the edit buttons and 'Create New Agent' cards. */
  canConfigure: boolean;
}

/** The agent list home's groups ('Enrollment Agents', 'Engagement Agents' or 'Ecommerce Agents'), each a grid of cards. */
export function AgentGroups({ urlCode, groups, canConfigure }: GroupsProps) {
  return (
    <>
      {groups.map((group) => {
        const headingId = `agent-group-${group.type}`;
        const showCreate = canConfigure && group.offersCreate;
        return (
          <section key={group.type} aria-labelledby={headingId} className={s.group} data-testid="agent-group">
            <h2 id={headingId}>{group.title}</h2>
            {!group.agents.length && !showCreate ? <p className={s.empty}>No agents yet.</p> : null}
            <ul className={s.grid}>
              {group.agents.map((agent) => (
                <li key={agent.id} className={s.card} data-testid="agent-card">
                  <AgentCard urlCode={urlCode} agent={agent} canEdit={canConfigure} />
                </li>
              ))}
              {showCreate ? (
                <li>
                  <Link
                    to={`/${urlCode}/build-agent?type=${group.type}`}
                    className={s.createCard}
                    data-testid="create-agent-card"
                  >
                    <span aria-hidden="true">+</span>
                    {CREATE_NEW_AGENT}
                  </Link>
                </li>
              ) : null}
            </ul>
          </section>
        );
      })}
    </>
  );
}

/** One agent (364 × 126 px): the card opens the agent; the pencil edits it. */
function AgentCard({ urlCode, agent, canEdit }: { urlCode: string; agent: AgentSummary; canEdit: boolean }) {
  const active = agent.status === "active";
  return (
    <>
      <Link to={`/${urlCode}/agent/${encodeURIComponent(agentSegment(agent))}`} className={s.cardLink}>
        <AgentLogo src={agent.logo} className={s.logo} />
        <div className={s.cardBody}>
          <h3 className={s.cardName}>{agent.name}</h3>
          <p className={s.cardMeta}>
            {agentTypeLabel(agent.agent_type)}
            {agent.site_code ? ` · ${agent.site_code}` : null}
          </p>
          <span className={s.status}>
            <span className={active ? `${s.dot} ${s.dotActive}` : s.dot} aria-hidden="true" />
            {titleCase(agent.status)}
          </span>
        </div>
      </Link>
      {canEdit ? (
        <Link to={`/${urlCode}/build-agent?id=${agent.id}`} className={s.editButton} aria-label={`Edit ${agent.name}`}>
          <PencilIcon />
        </Link>
      ) : null}
    </>
  );
}

function PencilIcon() {
  return (
    <svg className={s.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16v4zM13.5 6.5l4 4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
