import { useEffect, useState, type ComponentType } from "react";
import { useToasts } from "#app/lib/ui/toast.ts";

let loading: Promise<ComponentType> | null = null;

/** Fetches the toast list's code once; after a failed fetch the next call tries again. */
function loadToastList(): Promise<ComponentType> {
  loading ??= import("./toast-list.tsx").then(
    (module) => module.ToastList,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * Renders the current toast. Mount once, near the end of `<body>`. Radix's Toast is fetched when
 * the first toast is shown, or as soon as a form is sent (its answer usually brings one), not
 * with every page (decision 0028); once there, it stays mounted.
 */
export function Toaster() {
  const toasts = useToasts();
  const [List, setList] = useState<ComponentType | null>(null);
  const shown = toasts[0]?.id;
  useEffect(() => {
    const early = () => void loadToastList().catch(() => {});
    document.addEventListener("submit", early, { capture: true, once: true });
    return () => document.removeEventListener("submit", early, { capture: true });
  }, []);
  useEffect(() => {
    if (!shown || List) return;
    let current = true;
    loadToastList().then(
      (loaded) => {
        if (current) setList(() => loaded);
      },
      () => {
        // Not fetched (offline): the next toast tries again.
      },
    );
    return () => {
      current = false;
    };
  }, [shown, List]);
  return List ? <List /> : null;
}
