/**
 * Where the chat widget puts its panel, in px: the widget lays itself out by these, and the
 * console's preview sizes its frame by them to show the panel at its real size. A module of its own,
 * so the widget's script takes these numbers without the appearance catalogue.
 */

/** How far the panel's bottom sits above the bottom of the launcher's corner box. */
export const PANEL_ABOVE_LAUNCHER = 64;
/** What a window keeps free above and below the panel together: a shorter window shrinks the panel. */
export const PANEL_WINDOW_MARGIN = 100;
/**
 * At most what a window too narrow for the panel at its distance from the edge keeps free on each
 * side of it (the distance itself when smaller). Such a window (a phone's) moves the panel toward
 * the launcher's edge and then narrows it, rather than keep the distance on both sides: a 64 px
 * distance left a 360 px phone a 232 px panel.
 */
export const PANEL_NARROW_MARGIN = 16;

/** The smallest window that shows a panel of this size whole and unshrunk, this far from the edge on both sides. */
export function windowForPanel({ width, height, offset }: { width: number; height: number; offset: number }) {
  return {
    width: width + 2 * offset,
    height: height + Math.max(PANEL_WINDOW_MARGIN, offset + PANEL_ABOVE_LAUNCHER),
  };
}
