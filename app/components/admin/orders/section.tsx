import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";

/** One titled card of an admin page (an order's, an enquiry's, a quote's, …). */
export function Section({
  title,
  children,
  className,
}: {
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={className}>
      <CardHeader className="pb-3">
        <CardTitle as="h2" className="text-lg">
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** A term and its value; empty values say so rather than vanish. */
export function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8.5rem_minmax(0,1fr)] gap-2 py-1 text-sm">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="[overflow-wrap:anywhere]">
        {children ?? <span className="text-muted-foreground">—</span>}
      </dd>
    </div>
  );
}
