import { Link, useLocation } from "@remix-run/react";
import * as ui from "~/styles/ui.css";

/** Previous/next links that keep every other search param, so a pasted URL shows the same page. */
export function Pagination({
  page,
  totalPages,
  param = "page",
  countIsCapped = false,
}: {
  page: number;
  totalPages: number;
  param?: string;
  /** The total was counted up to a cap: the pages go on past `totalPages` while they are full. */
  countIsCapped?: boolean;
}) {
  const location = useLocation();
  if (totalPages <= 1) return null;
  const hrefFor = (target: number) => {
    const params = new URLSearchParams(location.search);
    params.set(param, String(target));
    return `${location.pathname}?${params}`;
  };
  return (
    <nav aria-label="Pagination" className={ui.toolbar}>
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={ui.button.secondary}>
          Previous
        </Link>
      ) : null}
      <span>
        Page {page} of {totalPages}
        {countIsCapped ? "+" : ""}
      </span>
      {page < totalPages ? (
        <Link to={hrefFor(page + 1)} className={ui.button.secondary}>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
