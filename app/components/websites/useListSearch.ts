import { useLocation } from "@remix-run/react";
import { isUnderWebsitesList, listSearchFrom } from "~/lib/websites";

/** The websites list's own parameters as its drawers carry them, read from the address shown now. */
export function useListSearch() {
  const { pathname, search } = useLocation();
  return listSearchFrom(new URLSearchParams(search), isUnderWebsitesList(pathname));
}
