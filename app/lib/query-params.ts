import { REFUSED_CHARACTERS } from "@contract/text";
import { MAX_PAGE } from "@contract/values/common";

/**
 * The page a `?page=` parameter asks for, kept within what the API serves: anything that is not
 * a plain number falls back to the first page, and a page past MAX_PAGE, however many digits it
 * has, is read as MAX_PAGE (past the end, as a large number says: lists show their last page).
 */
export function readPageParam(value: string | null, first: 0 | 1 = 1): number {
  const digits = value?.trim() ?? "";
  if (!/^\d{1,1000}$/.test(digits)) return first;
  if (digits.replace(/^0+/, "").length > 15) return MAX_PAGE;
  return Math.min(Math.max(Number(digits), first), MAX_PAGE);
}

/**
 * The page to show in place of one past the end of a list (its last rows just deleted or moved out
 * of the view, or an old link): the last page, as the pager says, instead of an empty table. Null
 * when the asked page stands, an empty list's included. `first` is the list's first page (0 or 1).
 */
export function lastPageInstead(
  asked: number,
  list: { totalCount: number; totalPages: number },
  first: 0 | 1 = 1,
): number | null {
  const last = first + list.totalPages - 1;
  return list.totalCount > 0 && list.totalPages > 0 && asked > last ? last : null;
}

/**
 * Search text with control and direction characters as spaces: no one types them in a search
 * box, line breaks included, and the API refuses most of them with no field to show it by.
 */
export const searchableText = (value: string) => value.replace(REFUSED_CHARACTERS, " ").replace(/[\t\n\r]/g, " ");

/**
 * Search text from the address as the API takes it: control and direction characters (which no
 * one types in a search box, and the API refuses) become spaces, and it is trimmed and cut to the API's length.
 */
export function readSearchParam(value: string | null, maxLength: number): string {
  return searchableText(value ?? "")
    .trim()
    .slice(0, maxLength)
    .trim();
}
