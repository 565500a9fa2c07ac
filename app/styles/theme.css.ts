import { createGlobalTheme, globalStyle } from "@vanilla-extract/css";

/**
 * Below this width the navigation goes above the page rather than beside it (a phone, a narrow
 * window), and what sits side by side in the page goes one under another.
 */
export const NARROW_WINDOW = "screen and (max-width: 760px)";

export const vars = createGlobalTheme(":root", {
  color: {
    text: "#1f2430",
    muted: "#5b6375",
    border: "#d9dde6",
    surface: "#ffffff",
    canvas: "#f4f6fa",
    primary: "#2f54eb",
    primaryText: "#ffffff",
    primarySoft: "#e8edff",
    success: "#1f7a3a",
    successSoft: "#e3f4e8",
    warning: "#8a5a00",
    warningSoft: "#fff3d6",
    error: "#b42318",
    errorSoft: "#fde8e6",
    info: "#0b5cad",
    infoSoft: "#e2efff",
    changed: "#e6f4ff",
    invalid: "#fff1f0",
  },
  space: { xs: "4px", sm: "8px", md: "16px", lg: "24px", xl: "32px" },
  size: {
    /** One height for every input, select and button, so controls side by side line up. */
    control: "36px",
    /** The top bar's height: what sticks below it sticks this far down. */
    topBar: "56px",
  },
  radius: { sm: "4px", md: "8px", lg: "12px" },
  font: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  },
  shadow: {
    card: "0 1px 2px rgba(16,24,40,.06), 0 1px 3px rgba(16,24,40,.1)",
    popover: "0 8px 24px rgba(16,24,40,.16)",
  },
});

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });
globalStyle("html, body", { margin: 0, padding: 0 });
// Whatever the browser scrolls into view (a link's fragment, a field taking the focus) stops below
// the sticky top bar, not under it.
globalStyle("html", { scrollPaddingTop: `calc(${vars.size.topBar} + ${vars.space.md})` });
globalStyle("body", {
  fontFamily: vars.font.body,
  fontSize: "14px",
  lineHeight: 1.5,
  color: vars.color.text,
  background: vars.color.canvas,
});
globalStyle("a", { color: vars.color.primary });
// A list of facts (a run's, a conversation's, a website's) sets each value under its label, flush
// with it: never the browser's 40-pixel indent.
globalStyle("dd", { margin: 0 });
// Titles hold names operators chose ("Welcome {client}"), however long: they wrap within the page.
globalStyle("h1", { fontSize: "22px", margin: `0 0 ${vars.space.md}`, overflowWrap: "anywhere" });
globalStyle("h2", { fontSize: "17px", margin: `0 0 ${vars.space.sm}` });
globalStyle(":focus-visible", { outline: `2px solid ${vars.color.primary}`, outlineOffset: "2px" });
globalStyle("table", { borderCollapse: "collapse", width: "100%", background: vars.color.surface });
globalStyle("th, td", {
  textAlign: "left",
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "top",
});
globalStyle("th", { fontWeight: 600, color: vars.color.muted, fontSize: "13px" });

// Every @reach/dialog: a centred card with a title, rounded corners and a shadow over a dimmed page.
// The library's own stylesheet (fixing the overlay over the window, no outline on the card) is
// written here instead of linked: a second stylesheet in every page's head is one more request that
// holds a first visit's first paint back (docs/decisions/019-fast-pages.md).
globalStyle("[data-reach-dialog-overlay]", {
  position: "fixed",
  inset: 0,
  overflow: "auto",
  background: "rgba(15, 23, 42, 0.45)",
  zIndex: 60,
});
globalStyle("[data-reach-dialog-content]", {
  outline: "none",
  width: "min(460px, calc(100vw - 32px))",
  margin: "18vh auto 0",
  padding: vars.space.lg,
  borderRadius: vars.radius.lg,
  boxShadow: "0 24px 48px rgba(16, 24, 40, 0.24)",
  background: vars.color.surface,
});
globalStyle("[data-reach-dialog-content] > h2:first-child", { marginTop: 0 });
