import { useActionData, useLocation } from "@remix-run/react";
import { useState } from "react";

/**
 * The React key of a screen's form: a new one for every page the browser arrives at without an
 * action's answer (first load, another trigger point, the reload after a successful save), so
 * the form starts from the loaded values and clean. A refused save keeps the form (and what is
 * being typed) while the page revalidates.
 */
export function useFormGeneration() {
  const location = useLocation();
  const answered = useActionData() !== undefined;
  const [generation, setGeneration] = useState(location.key);
  const current = answered ? generation : location.key;
  if (current !== generation) setGeneration(current);
  return current;
}
