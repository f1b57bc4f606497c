import { z } from "zod/mini";

// Zod probes for eval() (new Function) when a schema is built, to speed up parsing. Our CSP
// forbids eval, and the probe alone is reported as a violation, so in the browser zod runs
// without it. Imported first by app/root.tsx: route modules build their schemas as they load,
// before the client entry runs.
if (typeof document !== "undefined") z.config({ jitless: true });
