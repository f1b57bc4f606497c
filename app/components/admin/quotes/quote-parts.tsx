import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import {
  QUOTE_STATUS_BADGE,
  QUOTE_STATUS_LABELS,
  type QuoteStatus,
} from "#app/lib/quotes/quotes.ts";

/** What the quote screens share: the status badge and the way back to the list. */

export function QuoteStatusBadge({ status }: { status: QuoteStatus }) {
  return <Badge variant={QUOTE_STATUS_BADGE[status]}>{QUOTE_STATUS_LABELS[status]}</Badge>;
}

export function BackToQuotes() {
  return (
    <Link
      to="/admin/quotes"
      className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft aria-hidden className="size-4" />
      Back to Quotes
    </Link>
  );
}
