import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { z } from "zod";

// Zod probes for eval() to speed up parsing; our CSP forbids eval, and the probe alone is
// reported as a violation. Parse without it in the browser.
z.config({ jitless: true });

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
