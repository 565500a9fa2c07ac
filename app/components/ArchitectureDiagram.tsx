import type { MetaFunction } from "@remix-run/node";
import { Link, useLocation, useParams, useRouteLoaderData } from "@remix-run/react";
import { useId, useState, type ReactNode } from "react";
import type { loader as rootLoader } from "~/root";
import {
  AGENT_MEMORY,
  CHANNEL_GROUPS,
  DATA_STORES,
  ROUTER_AGENT,
  SUB_AGENTS,
  cardLink,
  tooltipText,
  type ArchitectureCard,
  type DiagramScope,
} from "~/lib/architecture";
import { agentSegment, selectedAgentFor, selectedClientFor } from "~/lib/clients";
import { selectionFor, titleMeta } from "~/lib/page-title";
import * as s from "./ArchitectureDiagram.css";

type Tone = keyof typeof s.cardTone;

/** The diagram's heading: the agent's name as the client's list has it, else as the address gives it. */
const architectureHeading = (agent: { name: string } | null, agentName: string) =>
  `${agent?.name ?? agentName} architecture`;

/** An agent landing page's title: its heading, then the client's name. */
export const architectureMeta: MetaFunction = (args) => {
  const { client, agent } = selectionFor(args);
  return titleMeta(args.error, architectureHeading(agent, args.params.agentName ?? ""), client?.client_name);
};

/**
 * The spec's architecture landing diagram: channels feed the Enrollment AI router, which has a
 * memory and six sub agents backed by three data stores. Every card is a plain link so the
 * diagram works before (or without) JavaScript.
 */
export function ArchitectureDiagram() {
  const { pathname } = useLocation();
  const { agentName = "" } = useParams();
  const signedIn = useRouteLoaderData<typeof rootLoader>("root")?.signedIn;
  const client = signedIn ? selectedClientFor(pathname, signedIn.apps) : null;
  const agent = selectedAgentFor(pathname, client);
  const scope: DiagramScope = {
    client,
    agentSegment: agent ? agentSegment(agent) : agentName,
    triggerPoint: agent?.site_code || null,
    backoffice: signedIn?.backoffice ?? null,
  };
  const arrowHeadId = `architecture-arrow-${useId().replace(/:/g, "")}`;
  const arrowTo = `url(#${arrowHeadId})`;

  return (
    <section className={s.diagram}>
      <h1>{architectureHeading(agent, agentName)}</h1>
      <p className={s.subtitle}>
        {client
          ? "Hover over or focus a card to see what it does; open it to configure that part of the agent."
          : "No client is selected: cards that configure an agent open the client list first."}
      </p>

      <h2 className={s.sectionLabel}>Channels</h2>
      <ul className={s.channelGroups}>
        {CHANNEL_GROUPS.map((group) => (
          <li key={group.title} className={s.channelGroup}>
            <h3 className={s.channelGroupTitle}>{group.title}</h3>
            <ul className={s.cardRow}>
              {group.channels.map((channel) => (
                <li key={channel.title}>
                  <DiagramCard card={channel} scope={scope} tone="channel" />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>

      <Connector>
        <line className={`${s.dashedLine} ${s.fromWide}`} x1="25%" y1="0" x2="50%" y2="100%" markerEnd={arrowTo} />
        <line className={`${s.dashedLine} ${s.fromWide}`} x1="75%" y1="0" x2="50%" y2="100%" markerEnd={arrowTo} />
        <line
          className={`${s.dashedLine} ${s.narrowerThanWide}`}
          x1="50%"
          y1="0"
          x2="50%"
          y2="100%"
          markerEnd={arrowTo}
        />
        <defs>
          <marker
            id={arrowHeadId}
            viewBox="0 0 10 10"
            refX="10"
            refY="5"
            markerUnits="userSpaceOnUse"
            markerWidth="10"
            markerHeight="10"
            orient="auto-start-reverse"
          >
            <path className={s.arrowHead} d="M0,0 L10,5 L0,10 z" />
          </marker>
        </defs>
      </Connector>

      <div className={s.routerRow}>
        <span aria-hidden="true" />
        <DiagramCard card={ROUTER_AGENT} scope={scope} tone="router" />
        <div className={s.routerMemory}>
          <svg className={s.memoryConnector} aria-hidden="true" focusable="false">
            <line
              className={`${s.dashedLine} ${s.narrowerThanMedium}`}
              x1="50%"
              y1="0"
              x2="50%"
              y2="100%"
              markerStart={arrowTo}
              markerEnd={arrowTo}
            />
            <line
              className={`${s.dashedLine} ${s.fromMedium}`}
              x1="0"
              y1="50%"
              x2="100%"
              y2="50%"
              markerStart={arrowTo}
              markerEnd={arrowTo}
            />
          </svg>
          <DiagramCard card={AGENT_MEMORY} scope={scope} tone="memory" />
        </div>
      </div>

      <Connector>
        <line className={s.dashedLine} x1="50%" y1="0" x2="50%" y2="100%" markerEnd={arrowTo} />
      </Connector>

      <div className={s.subAgentPanel}>
        <h2 className={s.sectionLabel}>Sub agents</h2>
        <ol className={s.subAgentGrid}>
          {SUB_AGENTS.map((subAgent, index) => (
            <li key={subAgent.title} className={s.subAgentCell}>
              <DiagramCard card={subAgent} scope={scope} tone="subAgent" badge={index + 1} />
            </li>
          ))}
        </ol>
      </div>

      <Connector>
        <line
          className={`${s.dashedLine} ${s.fromMedium}`}
          x1="16.667%"
          y1="0"
          x2="16.667%"
          y2="100%"
          markerStart={arrowTo}
          markerEnd={arrowTo}
        />
        <line className={s.dashedLine} x1="50%" y1="0" x2="50%" y2="100%" markerStart={arrowTo} markerEnd={arrowTo} />
        <line
          className={`${s.dashedLine} ${s.fromMedium}`}
          x1="83.333%"
          y1="0"
          x2="83.333%"
          y2="100%"
          markerStart={arrowTo}
          markerEnd={arrowTo}
        />
      </Connector>

      <div className={s.storePanel}>
        <h2 className={s.sectionLabel}>Data stores</h2>
        <ul className={s.storeGrid}>
          {DATA_STORES.map((store) => (
            <li key={store.title}>
              <DiagramCard card={store} scope={scope} tone="store" />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** A strip between two rows of cards holding their dashed arrows; decoration only. */
function Connector({ children }: { children: ReactNode }) {
  return (
    <svg className={s.connector} aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

function DiagramCard({
  card,
  scope,
  tone,
  badge,
}: {
  card: ArchitectureCard;
  scope: DiagramScope;
  tone: Tone;
  badge?: number;
}) {
  const tooltipId = useId();
  // WCAG 1.4.13: a tooltip that appears on hover or focus must be dismissable without moving away.
  const [tooltipDismissed, setTooltipDismissed] = useState(false);
  const link = cardLink(card.target, scope);
  const className = `${s.cardTone[tone]} ${s.cardWidth[card.width]}`;
  const content = (
    <>
      {badge !== undefined && (
        <span className={s.subAgentNumber} aria-hidden="true">
          {badge}
        </span>
      )}
      <span>{card.title}</span>
    </>
  );

  let cardElement: ReactNode;
  if (link.kind === "internal") {
    cardElement = (
      <Link to={link.to} className={className} aria-describedby={tooltipId}>
        {content}
      </Link>
    );
  } else if (link.kind === "newWindow") {
    cardElement = (
      <a href={link.href} target="_blank" rel="noreferrer" className={className} aria-describedby={tooltipId}>
        {content}
      </a>
    );
  } else {
    // Nothing in the console configures these channels; still focusable so keyboard users get the tooltip.
    cardElement = (
      <span role="group" tabIndex={0} aria-label={card.title} className={className} aria-describedby={tooltipId}>
        {content}
      </span>
    );
  }

  return (
    <div
      className={s.cardSlot}
      data-tooltip-dismissed={tooltipDismissed || undefined}
      onKeyDown={(event) => event.key === "Escape" && setTooltipDismissed(true)}
      onMouseLeave={() => setTooltipDismissed(false)}
      onBlur={() => setTooltipDismissed(false)}
    >
      {cardElement}
      <span role="tooltip" id={tooltipId} className={s.tooltip}>
        {tooltipText(card, link)}
      </span>
    </div>
  );
}
