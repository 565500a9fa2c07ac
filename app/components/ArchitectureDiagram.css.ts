import { createContainer, style, styleVariants } from "@vanilla-extract/css";
import { CARD_WIDTH_PX, SUB_AGENT_GRID_WIDTH } from "../lib/architecture";
import { vars } from "../styles/theme.css";

// Layout follows the diagram's own width, not the window's: the shell's navigation takes part of it.
const diagramWidth = createContainer();
const atLeast = (px: number) => `${diagramWidth} (min-width: ${px}px)`;
/** Three data stores side by side; also where the router and its memory sit on one line. */
const MEDIUM = 560;
/** Three sub agents per row, and the two channel groups side by side. */
const WIDE = 800;
/** All six sub agents on one row at their spec widths (4×180 + 320 + 225 plus gaps and padding). */
const FULL = 1400;

export const diagram = style({
  containerName: diagramWidth,
  containerType: "inline-size",
  display: "grid",
  maxWidth: "1480px",
});

export const subtitle = style({ color: vars.color.muted, margin: `0 0 ${vars.space.lg}` });

const sectionLabelText = {
  fontSize: "12px",
  fontWeight: 600,
  letterSpacing: "0.04em",
  textTransform: "uppercase",
  color: vars.color.muted,
  margin: `0 0 ${vars.space.sm}`,
  textAlign: "center",
} as const;
export const sectionLabel = style(sectionLabelText);

const list = style({ listStyle: "none", margin: 0, padding: 0 });

export const channelGroups = style([
  list,
  {
    display: "grid",
    gap: vars.space.lg,
    // Each group as wide as its cards (Students has two, University Systems three): no half-empty box.
    "@container": { [atLeast(WIDE)]: { gridTemplateColumns: "2fr 3fr" } },
  },
]);

const panel = style({
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  background: vars.color.surface,
  padding: vars.space.md,
});

export const channelGroup = panel;
export const channelGroupTitle = style([sectionLabelText]);

export const cardRow = style([
  list,
  { display: "flex", flexWrap: "wrap", justifyContent: "center", gap: vars.space.md },
]);

export const routerRow = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.sm,
  "@container": {
    [atLeast(MEDIUM)]: { display: "grid", gridTemplateColumns: "1fr auto 1fr", alignItems: "center", gap: 0 },
  },
});
export const routerMemory = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  "@container": { [atLeast(MEDIUM)]: { flexDirection: "row", justifySelf: "start" } },
});
export const memoryConnector = style({
  display: "block",
  overflow: "visible",
  width: "16px",
  height: "32px",
  "@container": { [atLeast(MEDIUM)]: { width: "48px", height: "16px" } },
});

export const subAgentPanel = panel;
export const subAgentGrid = style([
  list,
  {
    display: "grid",
    gap: vars.space.md,
    // One sub agent per row: let the widest card shrink rather than overflow a narrow screen.
    gridTemplateColumns: `repeat(${SUB_AGENT_GRID_WIDTH}, minmax(0, 1fr))`,
    "@container": {
      // Equal columns, so the cards of every row line up under those of the row above.
      [atLeast(MEDIUM)]: { gridTemplateColumns: `repeat(${2 * SUB_AGENT_GRID_WIDTH}, minmax(0, 1fr))` },
      [atLeast(WIDE)]: { gridTemplateColumns: `repeat(${3 * SUB_AGENT_GRID_WIDTH}, minmax(0, 1fr))` },
      [atLeast(FULL)]: { gridTemplateColumns: `repeat(${6 * SUB_AGENT_GRID_WIDTH}, minmax(0, 1fr))` },
    },
  },
]);
export const subAgentCell = style({
  gridColumn: `span ${SUB_AGENT_GRID_WIDTH}`,
  display: "flex",
  justifyContent: "center",
});

export const storePanel = panel;
export const storeGrid = style([
  list,
  {
    display: "grid",
    gap: vars.space.md,
    justifyItems: "center",
    "@container": { [atLeast(MEDIUM)]: { gridTemplateColumns: "repeat(3, 1fr)" } },
  },
]);

// Connectors: percentages keep each arrow over the column it belongs to at any width.
export const connector = style({ display: "block", width: "100%", height: "40px", overflow: "visible" });
export const dashedLine = style({ stroke: vars.color.muted, strokeWidth: 1.5, strokeDasharray: "6 4", fill: "none" });
export const arrowHead = style({ fill: vars.color.muted });
export const narrowerThanMedium = style({ "@container": { [atLeast(MEDIUM)]: { display: "none" } } });
export const narrowerThanWide = style({ "@container": { [atLeast(WIDE)]: { display: "none" } } });
export const fromMedium = style({ display: "none", "@container": { [atLeast(MEDIUM)]: { display: "inline" } } });
export const fromWide = style({ display: "none", "@container": { [atLeast(WIDE)]: { display: "inline" } } });

// A card and its tooltip share this slot so hovering either keeps the tooltip open.
export const cardSlot = style({
  position: "relative",
  display: "flex",
  justifyContent: "center",
  maxWidth: "100%",
  selectors: { "&:hover, &:focus-within": { zIndex: 5 } },
});

const cardBase = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.sm,
  minHeight: "64px",
  maxWidth: "100%",
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.card,
  color: vars.color.text,
  fontWeight: 600,
  textAlign: "center",
  textDecoration: "none",
  background: vars.color.surface,
  selectors: {
    "a&:hover": { borderColor: vars.color.primary, textDecoration: "underline" },
  },
});

export const cardWidth = styleVariants(CARD_WIDTH_PX, (px) => ({ width: `${px}px` }));

export const cardTone = styleVariants({
  channel: [cardBase],
  router: [
    cardBase,
    {
      background: vars.color.primary,
      borderColor: vars.color.primary,
      color: vars.color.primaryText,
      minHeight: "72px",
      fontSize: "16px",
    },
  ],
  memory: [cardBase, { background: vars.color.infoSoft }],
  subAgent: [cardBase, { background: vars.color.primarySoft }],
  store: [cardBase, { background: vars.color.warningSoft }],
});

export const subAgentNumber = style({
  flex: "none",
  display: "inline-grid",
  placeItems: "center",
  width: "22px",
  height: "22px",
  borderRadius: "999px",
  background: vars.color.primary,
  color: vars.color.primaryText,
  fontSize: "12px",
});

export const tooltip = style({
  position: "absolute",
  top: "calc(100% + 6px)",
  left: "50%",
  transform: "translateX(-50%)",
  width: "max-content",
  maxWidth: "260px",
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.sm,
  background: vars.color.text,
  color: vars.color.surface,
  boxShadow: vars.shadow.popover,
  fontSize: "13px",
  fontWeight: 400,
  textAlign: "left",
  visibility: "hidden",
  opacity: 0,
  transition: "opacity 120ms ease-in",
  selectors: {
    // Bridges the gap under the card so the pointer can move onto the tooltip without losing it.
    "&::before": { content: "''", position: "absolute", left: 0, right: 0, top: "-6px", height: "6px" },
    [`${cardSlot}:hover &, ${cardSlot}:focus-within &`]: { visibility: "visible", opacity: 1 },
    [`${cardSlot}[data-tooltip-dismissed] &`]: { visibility: "hidden", opacity: 0 },
  },
  "@media": { "(prefers-reduced-motion: reduce)": { transition: "none" } },
});
