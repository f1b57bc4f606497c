import { startTransition, StrictMode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { HYDRATED_EVENT } from "#app/lib/hydration.ts";

/**
 * React Router's own client entry, plus one signal: on a page whose hydration was held back
 * (app/lib/hydration.ts), clicks and form posts made meanwhile are replayed once the whole page
 * is hydrated, which is when this effect runs (after every effect of the page itself).
 */
function AnnounceHydrated() {
  useEffect(() => {
    document.dispatchEvent(new Event(HYDRATED_EVENT));
  }, []);
  return null;
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
      <AnnounceHydrated />
    </StrictMode>,
  );
});
