import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { rememberTypedBeforeHydration } from "~/lib/typed-before-hydration";

// Remix's own entry, plus one step: what was typed while the scripts loaded is noted before React
// takes the page over (app/root.tsx gives it back once hydrated).
rememberTypedBeforeHydration();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
