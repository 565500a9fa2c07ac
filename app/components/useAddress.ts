import { useLocation } from "@remix-run/react";

/**
 * This page's address with some search params set or (null) removed: how drawers and questions
 * that open by address are linked to and closed. Remix's `index` marker is never carried over.
 */
export function useAddress() {
  const location = useLocation();
  return (set: Record<string, string | null>) => {
    const params = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(set)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    params.delete("index");
    return `${location.pathname}${params.size ? `?${params}` : ""}`;
  };
}
