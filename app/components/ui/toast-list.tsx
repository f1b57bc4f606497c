import { Toast as ToastPrimitive } from "radix-ui";
import { X } from "lucide-react";
import { cn } from "#app/lib/ui/cn.ts";
import { dismiss, useToasts } from "#app/lib/ui/toast.ts";

const variants = {
  default: "border-border bg-card text-card-foreground",
  destructive: "border-destructive bg-destructive text-destructive-foreground",
} as const;

/** Renders the current toast with Radix's Toast; `Toaster` (./toast.tsx) loads it when needed. */
export function ToastList() {
  const toasts = useToasts();
  return (
    // Keyed by the toast so each new toast gets a fresh provider: radix keeps its
    // "paused" flag (set by hover or focus) after the previous toast has gone, which
    // would otherwise stop the next one from ever closing by itself.
    <ToastPrimitive.Provider key={toasts[0]?.id ?? "none"} duration={5000}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismiss(t.id);
          }}
          // radix announces "foreground" toasts assertively and "background" ones politely.
          type={t.variant === "destructive" ? "foreground" : "background"}
          className={cn(
            "pointer-events-auto relative flex w-full items-start justify-between gap-4 rounded-md border p-4 pr-10 shadow-lg data-[state=closed]:animate-fade-out data-[state=open]:animate-toast-in data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:translate-x-(--radix-toast-swipe-end-x) data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x)",
            variants[t.variant],
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description ? (
              <ToastPrimitive.Description className="text-sm">
                {t.description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          {/* aria-label rather than text, so "Close" is not read out as part of the message. */}
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-3 right-3 cursor-pointer rounded-sm opacity-80 transition-opacity hover:opacity-100"
          >
            <X className="size-4" aria-hidden />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-100 m-0 flex w-full list-none flex-col p-4 outline-hidden sm:max-w-sm" />
    </ToastPrimitive.Provider>
  );
}
