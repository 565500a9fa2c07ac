import { useLocation } from "@remix-run/react";
import { useCallback, useState } from "react";
import type { ToastMessage } from "~/components/Toaster";

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

/** A toast raised in the browser (copy, export, a refused value): a new object each time, so the Toaster shows it again. */
export function useClientToast() {
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const show = useCallback((type: ToastMessage["type"], description: string) => setToast({ type, description }), []);
  return { toast, show };
}
