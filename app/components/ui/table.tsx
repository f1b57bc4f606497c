import type { ComponentProps } from "react";
import { cn } from "#app/lib/ui/cn.ts";

export function Table({
  className,
  wrapperClassName,
  ...props
}: ComponentProps<"table"> & {
  /** Classes of the scrolling box around the table (e.g. `hidden md:block`). */
  wrapperClassName?: string;
}) {
  return (
    // Focusable so keyboard users can scroll a table wider than the screen (axe
    // scrollable-region-focusable).
    <div
      className={cn("relative w-full overflow-x-auto", wrapperClassName)}
      tabIndex={0}
      data-table-wrapper=""
    >
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return (
    <tr
      className={cn("border-b border-border transition-colors hover:bg-muted/50", className)}
      {...props}
    />
  );
}

export function TableHead({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      className={cn(
        "h-10 px-3 text-left align-middle font-medium whitespace-nowrap text-muted-foreground",
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("p-3 align-middle", className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<"caption">) {
  return <caption className={cn("mt-4 text-sm text-muted-foreground", className)} {...props} />;
}
