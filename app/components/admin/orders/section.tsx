import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";

/** One titled card of the admin order page. */
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
