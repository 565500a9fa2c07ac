import * as s from "~/styles/shell.css";

/** Shown while the client list a page depends on is still loading. */
export function PageSkeleton() {
  return (
    <div className={s.skeleton} aria-busy="true" aria-label="Loading" data-testid="page-skeleton">
      <div className={s.skeletonTitle} />
      <div className={s.skeletonBar} />
      <div className={s.skeletonLineMedium} />
      <div className={s.skeletonLineShort} />
    </div>
  );
}
