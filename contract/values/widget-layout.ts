/**
 * Where the chat widget puts its panel, in px: the widget lays itself out by these, and the
 * console's preview sizes its frame by them to show the panel at its real size. A module of its own,
 * so the widget's script takes these numbers without the appearance catalogue.
 */

/** How far the panel's bottom sits above the bottom of the launcher's corner box. */
export const PANEL_ABOVE_LAUNCHER = 64;
/** What a window keeps free above and below the panel together: a shorter window shrinks the panel. */
export const PANEL_WINDOW_MARGIN = 100;

/** The smallest window that shows a panel of this size, this far from the edge, whole and unshrunk. */
export function windowForPanel({ width, height, offset }: { width: number; height: number; offset: number }) {
  return {
    width: width + 2 * offset,
    height: height + Math.max(PANEL_WINDOW_MARGIN, offset + PANEL_ABOVE_LAUNCHER),
  };
}
