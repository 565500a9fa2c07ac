import * as s from "~/styles/shell.css";

/** Shown while the client list a page depends on is still loading. */
export function PageSkeleton() {
  return (
    <div className={s.skeleton} aria-busy="true" aria-label="Loading" data-testid="page-skeleton">
      <div className={s.skeletonBar} style={{ width: "30%", height: 28 }} />
      <div className={s.skeletonBar} />
      <div className={s.skeletonBar} style={{ width: "85%" }} />
      <div className={s.skeletonBar} style={{ width: "70%" }} />
    </div>
  );
}
