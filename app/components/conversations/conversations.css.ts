import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const intro = style({ color: vars.color.muted, maxWidth: "72ch", marginTop: 0 });

// ── The list ──
export const filters = style({
  display: "flex",
  gap: vars.space.md,
  alignItems: "flex-start",
  flexWrap: "wrap",
  marginBottom: vars.space.md,
});
export const filterField = style({ display: "grid", gap: vars.space.xs, maxWidth: "240px" });
export const filterActions = style({
  display: "flex",
  gap: vars.space.sm,
  alignItems: "center",
  flexWrap: "wrap",
  alignSelf: "flex-end",
});
/**
 * The last question, at least 10em wide (a long word breaks only when it must, not a narrow column
 * into pieces of words; and the client's list, with its trigger point column, fits a 1,280-pixel
 * window) and at most three lines: a 2,000-character question does not make its row a page long.
 * The whole question stays in the page for screen readers and on hover.
 */
export const lastQuestion = style({ minWidth: "10em", maxWidth: "420px", overflowWrap: "break-word" });
/**
 * The client-wide list's trigger point: the agent's name and its site code. A site code is one long
 * word ("visitormx611svczxyp") that would widen the column past a 1,280-pixel window, so it may
 * break anywhere once the column is 8em wide.
 */
export const triggerPoint = style({ minWidth: "8em", overflowWrap: "anywhere" });
export const clamped = style({
  display: "-webkit-box",
  WebkitBoxOrient: "vertical",
  WebkitLineClamp: 3,
  overflow: "hidden",
});
export const chips = style({ display: "flex", gap: vars.space.xs, flexWrap: "wrap" });
/** "12 answered" reads as one pill: chips stack rather than break inside. */
globalStyle(`${chips} > *`, { whiteSpace: "nowrap" });
/** A chip whose words may wrap in a narrow column: one rounded box around its lines, not a broken pill. */
export const wrappingChip = style({});
// Above the chip's own rounding whatever order the style sheets load in.
globalStyle(`span.${wrappingChip}`, { display: "inline-block", borderRadius: vars.radius.md, lineHeight: 1.4 });

// ── The transcript ──
export const facts = style({ display: "flex", gap: vars.space.lg, flexWrap: "wrap", margin: `0 0 ${vars.space.lg}` });
globalStyle(`${facts} dt`, { color: vars.color.muted, fontSize: "13px" });
globalStyle(`${facts} dd`, { fontWeight: 600 });
export const messages = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: vars.space.md });
export const message = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  minWidth: 0,
  // A link to one message (from Business Insights) lands on it, marked (below the sticky header: theme).
  selectors: {
    "&[data-role='user']": { background: vars.color.primarySoft, marginRight: "15%" },
    "&:target": { outline: `2px solid ${vars.color.primary}`, outlineOffset: "2px" },
  },
});
export const messageHeader = style({
  display: "flex",
  gap: vars.space.sm,
  alignItems: "center",
  flexWrap: "wrap",
  marginBottom: vars.space.xs,
});
export const text = style({ whiteSpace: "pre-wrap", overflowWrap: "anywhere", margin: `0 0 ${vars.space.sm}` });
/** When a passage's page was indexed, under its address; the date and time never part. */
export const indexedAt = style({ display: "block", color: vars.color.muted, fontSize: "12px" });
globalStyle(`${indexedAt} time`, { whiteSpace: "nowrap" });
/** The key words a passage holds, under its score: they wrap between words, and never widen the column past its longest. */
export const heldWords = style({
  display: "block",
  whiteSpace: "normal",
  color: vars.color.muted,
  fontSize: "13px",
  textAlign: "left",
});
/** The key words' table as wide as its words and figures: three short columns spread over the page read apart. */
export const fitContent = style({ width: "fit-content" });
export const sources = style({ margin: `0 0 ${vars.space.sm}`, paddingLeft: vars.space.lg, overflowWrap: "anywhere" });
export const comment = style({
  // A visitor's comment may be one long word: it wraps rather than widening the transcript.
  overflowWrap: "anywhere",
  borderLeft: `3px solid ${vars.color.border}`,
  margin: `0 0 ${vars.space.sm}`,
  padding: `0 ${vars.space.sm}`,
  color: vars.color.muted,
});
export const disclosure = style({ marginTop: vars.space.sm });
export const disclosureSummary = style({ cursor: "pointer", fontWeight: 600, color: vars.color.primary });
export const disclosureBody = style({ marginTop: vars.space.sm, display: "grid", gap: vars.space.sm, minWidth: 0 });
// The grid spaces the trace's parts; their own margins would double it.
globalStyle(`${disclosureBody} > p, ${disclosureBody} > div > p, ${disclosureBody} h3`, { margin: 0 });
globalStyle(`${disclosureBody} h3`, { fontSize: "15px", marginBottom: vars.space.xs });
/** A passage's page: its title, address and text need more room than the figures beside them. */
export const pageCell = style({ minWidth: "16em", overflowWrap: "anywhere" });
export const passageText = style({
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  color: vars.color.muted,
  margin: `${vars.space.xs} 0 0`,
  maxWidth: "60ch",
});
export const url = style({ display: "block", color: vars.color.muted, fontSize: "12px", overflowWrap: "anywhere" });
export const plainList = style({ margin: 0, paddingLeft: vars.space.lg });
export const corrections = style({
  display: "flex",
  gap: vars.space.md,
  alignItems: "flex-start",
  flexWrap: "wrap",
  marginTop: vars.space.sm,
});
export const correctionForm = style({
  display: "grid",
  gap: vars.space.sm,
  marginTop: vars.space.sm,
  maxWidth: "640px",
});
export const inlineForm = style({ display: "inline-flex", gap: vars.space.xs, margin: 0 });
export const number = style({ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" });
