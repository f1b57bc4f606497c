import { ShieldAlert, ShieldCheck } from "lucide-react";
import { useFetcher } from "react-router";
import { ConfirmDelete } from "#app/components/admin/confirm-action.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { FilterSelect } from "#app/components/admin/list/filter-fields.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import {
  SPAM_FILTERS,
  SPAM_FILTER_LABELS,
  SPAM_REASON_LABELS,
  SUSPECTED_SPAM_LABEL,
  type SpamFilter,
  type SpamReason,
} from "#app/lib/admin/suspected-spam.ts";

/**
 * What the Inquiries, Newsletter and Payments screens show of suspected spam (decision 0012):
 * the marker, the list filter, and the Release / Delete buttons.
 */

/** The marker on a held row; its reason is the tooltip and is read out after the label. */
export function SuspectedSpamBadge({ reason }: { reason: SpamReason }) {
  return (
    <Badge variant="destructive" title={SPAM_REASON_LABELS[reason]} data-spam-reason={reason}>
      <ShieldAlert aria-hidden className="mr-1 size-3" />
      {SUSPECTED_SPAM_LABEL}
      <span className="sr-only">: {SPAM_REASON_LABELS[reason]}</span>
    </Badge>
  );
}

/** The list filter (`spam` in the URL, `#filter-spam`): all, suspected spam only, or none of it. */
export function SpamFilterSelect({ value }: { value: SpamFilter }) {
  return (
    <FilterSelect
      name="spam"
      label="Suspected spam"
      value={value}
      options={SPAM_FILTERS.filter((filter) => filter !== "all")}
      labels={SPAM_FILTER_LABELS}
      allLabel={SPAM_FILTER_LABELS.all}
    />
  );
}

/**
 * Release (clears the mark; the screen's action sends what was held) and Delete (asks first) for
 * one held row. Posts `intent=release|delete` and `id` to the screen's action; its answer is
 * toasted as soon as it arrives — not once the list has reloaded, since by then a released or
 * deleted row may have left the list (and this component with it).
 */
export function SuspectedSpamActions({
  id,
  what,
  deleteQuestion,
}: {
  id: string;
  /** The row in words, for the buttons' accessible names, e.g. "Jane Doe's inquiry". */
  what: string;
  deleteQuestion: string;
}) {
  const fetcher = useFetcher<FormAnswer>();
  useFormAnswer(fetcher, { immediate: () => true });
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" className="inline-flex items-center gap-1">
      <input type="hidden" name="id" value={id} />
      <Button
        type="submit"
        name="intent"
        value="release"
        size="sm"
        variant="outline"
        disabled={busy}
        aria-label={`Release ${what}`}
        title="Not spam: release it (sends what was held)"
      >
        <ShieldCheck aria-hidden />
        Release
      </Button>
      <ConfirmDelete
        question={deleteQuestion}
        subject={what.charAt(0).toUpperCase() + what.slice(1)}
        label={`Delete ${what}`}
        disabled={busy}
        onConfirm={() => fetcher.submit({ intent: "delete", id }, { method: "post" })}
      />
    </fetcher.Form>
  );
}
