import { lazy, Suspense, type ComponentProps } from "react";

/**
 * @reach/dialog, fetched the first time a dialog opens. It is a tenth of a page's JavaScript
 * (focus lock, scroll lock) and most pages open no dialog at all; without JavaScript the server's
 * confirm steps stand in for it anyway.
 */
const ReachDialog = lazy(() => import("@reach/dialog").then((module) => ({ default: module.Dialog })));

export function Dialog(props: ComponentProps<typeof ReachDialog>) {
  return (
    <Suspense fallback={null}>
      <ReachDialog {...props} />
    </Suspense>
  );
}
