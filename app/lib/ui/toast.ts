import { useSyncExternalStore } from "react";

/**
 * The site's toasts (the short messages after a form or an admin action): a tiny store outside
 * React, so any handler can show one without a provider; the Toaster renders what it holds.
 */
export type ToastVariant = "default" | "destructive";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ToastData {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  /** False while the toast plays its exit animation. */
  open: boolean;
}

// Product rule: at most one toast at a time, so the store holds zero or one.
let toasts: readonly ToastData[] = [];
let lastId = 0;
const listeners = new Set<() => void>();
const noToasts: readonly ToastData[] = [];

function set(next: readonly ToastData[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Shows a toast, replacing the one on screen. Call it from the client (handlers, effects). */
export function toast({ title, description, variant = "default" }: ToastInput): string {
  const id = String(++lastId);
  set([{ id, title, description, variant, open: true }]);
  return id;
}

/** Closes the toast on screen; with an id, only if that toast is still the one shown. */
export function dismiss(id?: string): void {
  const current = toasts[0];
  if (!current || !current.open || (id !== undefined && id !== current.id)) return;
  set([{ ...current, open: false }]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useToasts(): readonly ToastData[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => noToasts,
  );
}
