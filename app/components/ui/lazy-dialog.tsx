import { useState, type ComponentType } from "react";
import type { DialogWindowProps } from "./dialog.tsx";

let loading: Promise<ComponentType<DialogWindowProps>> | null = null;

/** Fetches the dialog's code once; after a failed fetch the next call tries again. */
function loadDialogWindow(): Promise<ComponentType<DialogWindowProps>> {
  loading ??= import("./dialog.tsx").then(
    (module) => module.DialogWindow,
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * A dialog whose code (Radix's Dialog) is fetched when it is first opened, not with the page that
 * offers it (decision 0028). `Window` is null until `load()` has fetched it; `load()` rejects when
 * the fetch fails, so the caller can fall back to its no-JavaScript path.
 */
export function useLazyDialog() {
  const [Window, setWindow] = useState<ComponentType<DialogWindowProps> | null>(null);
  async function load() {
    const loaded = await loadDialogWindow();
    setWindow(() => loaded);
  }
  return { Window, load };
}
