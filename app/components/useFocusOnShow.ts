import { type RefObject, useEffect, useLayoutEffect } from "react";

/**
 * On the client, a layout effect: focus moves in the same commit that draws the element, so a key
 * pressed the moment a question appears (Escape to answer it) already lands in it. A plain effect may
 * run a frame later, when the key has gone to what had focus before, and Escape would close the
 * drawer around the question instead. On the server neither runs; the plain one keeps React quiet.
 */
const useCommitEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** Moves focus to `ref`'s element when it is drawn, and again each time `key` changes. */
export function useFocusOnShow(ref: RefObject<HTMLElement>, key: unknown) {
  useCommitEffect(() => ref.current?.focus(), [key]);
}
