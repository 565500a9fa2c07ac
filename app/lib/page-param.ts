import { MAX_PAGE } from "../../contract/values/common";

/**
 * The page a `?page=` parameter asks for, kept within what the API serves: anything that is not
 * a plain number falls back to the first page, and a page past MAX_PAGE is read as MAX_PAGE
 * (an empty page rather than an error, like any page past the end).
 */
export function readPageParam(value: string | null, first: 0 | 1 = 1): number {
  if (value === null || !/^\d{1,15}$/.test(value.trim())) return first;
  return Math.min(Math.max(Number(value), first), MAX_PAGE);
}
