import { useLocation } from "@remix-run/react";
import { useCallback } from "react";
import { useToast, type ToastMessage } from "~/components/Toaster";

/** Hidden inputs carrying the current address params into a GET form, except the ones it sets itself. */
export function HiddenParams({ omit }: { omit: string[] }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const kept = [...params.entries()].filter(([name]) => !omit.includes(name));
  return (
    <>
      {kept.map(([name, value], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** A toast raised in the browser (copy, export, a refused value), shown in the page's one toast area. */
export function useClientToast() {
  const raise = useToast();
  const show = useCallback((type: ToastMessage["type"], description: string) => raise({ type, description }), [raise]);
  return { show };
}
