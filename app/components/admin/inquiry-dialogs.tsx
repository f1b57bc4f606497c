import { useFetcher } from "react-router";
import { InquiryStatusBadge, InquiryTypeBadge, ReplyDue } from "#app/components/admin/admin-ui.tsx";
import { SuspectedSpamBadge } from "#app/components/admin/suspected-spam.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DIALOG_FORM,
  DialogBody,
  DialogFormBody,
  DialogPanel,
} from "#app/components/ui/dialog.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect, SelectOptions } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import {
  INQUIRY_STATUSES,
  INQUIRY_STATUS_LABELS,
  NOTES_MAX_LENGTH,
  modalityLabel,
  type AdminInquiry,
} from "#app/lib/inquiries/admin.ts";
import { formatDateTime } from "#app/lib/admin/time.ts";
import type { FormAnswer } from "#app/lib/forms.ts";

/** The Inquiries screen's dialogs: an inquiry's details, and its status and notes. */

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[9rem_1fr] sm:gap-3">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children ?? "—"}</dd>
    </div>
  );
}

export function InquiryDetailsDialog({
  inquiry,
  onClose,
}: {
  inquiry: AdminInquiry | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={inquiry !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogPanel
        className="sm:max-w-2xl"
        title="Inquiry Details"
        description={inquiry ? `Received ${formatDateTime(inquiry.createdAt)}` : null}
      >
        {inquiry ? (
          <DialogBody>
            <dl className="grid gap-3">
              <Field label="Name">{inquiry.name}</Field>
              <Field label="Email">
                <a
                  href={`mailto:${inquiry.email}`}
                  className="text-primary underline-offset-4 hover:underline"
                >
                  {inquiry.email}
                </a>
              </Field>
              <Field label="Phone">{inquiry.phone}</Field>
              <Field label="Company">{inquiry.company}</Field>
              <Field label="Type">
                <InquiryTypeBadge type={inquiry.inquiryType} />
              </Field>
              <Field label="Status">
                <span className="inline-flex flex-wrap gap-2">
                  <InquiryStatusBadge status={inquiry.status} />
                  {inquiry.spamReason ? <SuspectedSpamBadge reason={inquiry.spamReason} /> : null}
                </span>
              </Field>
              {inquiry.replyDue ? (
                <Field label="Reply due">
                  <ReplyDue due={inquiry.replyDue} />
                </Field>
              ) : null}
              {inquiry.courseTitle || inquiry.modality || inquiry.attendees || inquiry.budget ? (
                <>
                  <Field label="Course">{inquiry.courseTitle}</Field>
                  <Field label="Modality">{modalityLabel(inquiry.modality)}</Field>
                  <Field label="Attendees">{inquiry.attendees}</Field>
                  <Field label="Budget">{inquiry.budget}</Field>
                </>
              ) : null}
              <Field label="Message">
                <p className="whitespace-pre-wrap">{inquiry.message}</p>
              </Field>
              <Field label="Notes">
                {inquiry.notes ? <p className="whitespace-pre-wrap">{inquiry.notes}</p> : null}
              </Field>
            </dl>
          </DialogBody>
        ) : null}
      </DialogPanel>
    </Dialog>
  );
}

export function InquiryUpdateDialog({
  inquiry,
  onClose,
}: {
  inquiry: AdminInquiry | null;
  onClose: () => void;
}) {
  const fetcher = useFetcher<FormAnswer>();
  const busy = fetcher.state !== "idle";
  useFormAnswer(fetcher, {
    failureToast: () => ({ title: "Error", description: "Failed to update inquiry" }),
    onSuccess: onClose,
  });

  return (
    <Dialog open={inquiry !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogPanel
        title="Update Inquiry"
        description={
          inquiry ? `Change the status or add notes for ${inquiry.name}'s inquiry.` : null
        }
      >
        {inquiry ? (
          <fetcher.Form method="post" className={DIALOG_FORM} key={inquiry.id}>
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={inquiry.id} />
            <DialogFormBody
              busy={busy}
              submit={
                <Button type="submit" disabled={busy}>
                  {busy ? "Updating..." : "Update Inquiry"}
                </Button>
              }
            >
              <div className="grid gap-2">
                <Label htmlFor="inquiry-status">Status</Label>
                <NativeSelect id="inquiry-status" name="status" defaultValue={inquiry.status}>
                  <SelectOptions values={INQUIRY_STATUSES} labels={INQUIRY_STATUS_LABELS} />
                </NativeSelect>
              </div>
              <div className="grid gap-2">
                <Label htmlFor="inquiry-notes">Notes</Label>
                <Textarea
                  id="inquiry-notes"
                  name="notes"
                  maxLength={NOTES_MAX_LENGTH}
                  defaultValue={inquiry.notes ?? ""}
                  placeholder="Add internal notes about this inquiry..."
                />
              </div>
            </DialogFormBody>
          </fetcher.Form>
        ) : null}
      </DialogPanel>
    </Dialog>
  );
}
