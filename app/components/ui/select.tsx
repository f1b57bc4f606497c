import type { ComponentProps } from "react";
import { ChevronDown } from "lucide-react";
import { cn } from "#app/lib/ui/cn.ts";

const fieldClasses =
  "flex h-10 w-full items-center rounded-md border border-input bg-background px-3 py-2 text-base disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive md:text-sm";

/**
 * A styled native `<select>`: it submits with the form even before (or without) JavaScript, and
 * keeps what the visitor chose before the page hydrated.
 */
export function NativeSelect({ className, ...props }: ComponentProps<"select">) {
  return (
    <div className="relative w-full">
      <select
        className={cn(fieldClasses, "cursor-pointer appearance-none pr-9", className)}
        {...props}
      />
      <ChevronDown
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 opacity-70"
        aria-hidden
      />
    </div>
  );
}

/** The options of a fixed list of values, each shown by its label. */
export function SelectOptions<Value extends string>({
  values,
  labels,
}: {
  values: readonly Value[];
  labels: Record<Value, string>;
}) {
  return values.map((value) => (
    <option key={value} value={value}>
      {labels[value]}
    </option>
  ));
}
