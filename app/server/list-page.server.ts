import { lastPageInstead } from "~/lib/query-params";

/** A read of one page of a list whose total the API counts up to a cap. */
type PageRead<List> = { data: List; error: null } | { data: null; error: string };

/**
 * The page of a list to show: the one asked for, or past the end (an old link, rows deleted or
 * filtered away) the last one, as the pager says. A capped count does not say where the end is,
 * so that page stays as asked.
 */
export async function pageShown<List extends { total: number; total_is_capped: boolean }>(
  asked: number,
  pageSize: number,
  read: PageRead<List> | { data: null; error: null },
  listAt: (page: number) => Promise<PageRead<List>>,
) {
  const lastPage =
    read.data && !read.data.total_is_capped
      ? lastPageInstead(asked, { totalCount: read.data.total, totalPages: Math.ceil(read.data.total / pageSize) })
      : null;
  return { listed: lastPage === null ? read : await listAt(lastPage), page: lastPage ?? asked, lastPage };
}
