import { ArrowLeft, FilePlus, MessageSquarePlus } from "lucide-react";
import { useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { InquiryStatusBadge, InquiryTypeBadge, ReplyDue } from "#app/components/admin/admin-ui.tsx";
import { Detail, Section } from "#app/components/admin/orders/section.tsx";
import { SuspectedSpamBadge } from "#app/components/admin/suspected-spam.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect, SelectOptions } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { formatDate, formatDateTime } from "#app/lib/admin/time.ts";
import { checkBeforePost, type FieldErrors, type FormAnswer } from "#app/lib/forms.ts";
import {
  INQUIRY_STATUSES,
  INQUIRY_STATUS_LABELS,
  modalityLabel,
} from "#app/lib/inquiries/admin.ts";
import {
  INQUIRY_NOTE_MAX_LENGTH,
  REPLY_DELIVERY_LABELS,
  inquiryAssignSchema,
  inquiryNoteSchema,
  type AdminInquiryPage,
  type InquiryReply,
} from "#app/lib/inquiries/thread.ts";
import { Composer } from "./inquiry-composer.tsx";
import { echoOf, FieldError } from "./inquiry-form-parts.tsx";

/**
 * One enquiry's page (decision 0048): the message and its details, the thread of replies with
 * the composer, the status, owner and follow-up date, and the notes. Every form works without
 * JavaScript (a refused post comes back with what was typed).
 */

function MessageSection({ page }: { page: AdminInquiryPage }) {
  const { inquiry } = page;
  return (
    <Section title="Enquiry">
      <dl>
        <Detail term="Name">{inquiry.name}</Detail>
        <Detail term="E-mail">
          <a
            href={`mailto:${inquiry.email}`}
            className="text-primary underline-offset-4 hover:underline"
          >
            {inquiry.email}
          </a>
        </Detail>
        <Detail term="Phone">{inquiry.phone}</Detail>
        <Detail term="Company">{inquiry.company}</Detail>
        <Detail term="Received">{formatDateTime(inquiry.createdAt)}</Detail>
        {inquiry.courseTitle || inquiry.modality || inquiry.attendees || inquiry.budget ? (
          <>
            <Detail term="Course">{inquiry.courseTitle}</Detail>
            <Detail term="Modality">{modalityLabel(inquiry.modality)}</Detail>
            <Detail term="Attendees">{inquiry.attendees}</Detail>
            <Detail term="Budget">{inquiry.budget}</Detail>
          </>
        ) : null}
      </dl>
      <h3 className="mt-4 text-sm font-medium text-muted-foreground">Message</h3>
      <p className="mt-1 rounded-md bg-muted/50 p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
        {inquiry.message}
      </p>
    </Section>
  );
}

function ReplyItem({ reply }: { reply: InquiryReply }) {
  const failed = reply.delivery === "failed";
  return (
    <li className="rounded-md border border-border p-3" data-delivery={reply.delivery}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{reply.subject}</span>
        <Badge variant={failed ? "destructive" : reply.delivery === "sent" ? "success" : "muted"}>
          {REPLY_DELIVERY_LABELS[reply.delivery]}
        </Badge>
      </div>
      <p className="text-xs text-muted-foreground">
        by {reply.author} ·{" "}
        <time dateTime={reply.createdAt}>{formatDateTime(reply.createdAt)}</time>
        {reply.sentAt ? ` · delivered to the mail server ${formatDateTime(reply.sentAt)}` : null}
      </p>
      <p className="mt-2 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{reply.body}</p>
    </li>
  );
}

function ThreadSection(props: {
  page: AdminInquiryPage;
  composerKey: string;
  answer?: FormAnswer;
}) {
  const { replies } = props.page;
  return (
    <Section title="Replies">
      {replies.length ? (
        <ol aria-label="Replies sent" className="grid gap-3">
          {replies.map((reply) => (
            <ReplyItem key={reply.id} reply={reply} />
          ))}
        </ol>
      ) : (
        <p className="text-sm text-muted-foreground">No reply has been sent from here yet.</p>
      )}
      <Composer {...props} />
    </Section>
  );
}

function AssignSection({ page, answer }: { page: AdminInquiryPage; answer?: FormAnswer }) {
  const fetcher = useFetcher<FormAnswer>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const busy = fetcher.state !== "idle";
  const { inquiry } = page;
  useFormAnswer(fetcher, {
    onSuccess: () => setErrors({}),
    onFailure: (failed) => setErrors(failed.fieldErrors),
  });
  const echo = echoOf(answer, "assign");
  const shown = { ...echo?.errors, ...errors };
  return (
    <Section title="Status, owner and follow-up">
      <fetcher.Form
        method="post"
        className="grid gap-3"
        aria-label="Status, owner and follow-up"
        noValidate
        onSubmit={(event) => setErrors(checkBeforePost(event, inquiryAssignSchema) ?? {})}
      >
        <input type="hidden" name="intent" value="assign" />
        <div className="grid gap-1">
          <Label htmlFor="inquiry-status">Status</Label>
          <NativeSelect
            id="inquiry-status"
            name="status"
            defaultValue={echo?.values.status ?? inquiry.status}
          >
            <SelectOptions values={INQUIRY_STATUSES} labels={INQUIRY_STATUS_LABELS} />
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="inquiry-owner">Owner</Label>
          <NativeSelect
            id="inquiry-owner"
            name="owner"
            defaultValue={echo?.values.owner ?? inquiry.ownerId ?? ""}
            aria-invalid={shown.owner ? true : undefined}
            aria-describedby={shown.owner ? "inquiry-owner-error" : undefined}
          >
            <option value="">Nobody yet</option>
            {page.staff.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name || s.email}
              </option>
            ))}
          </NativeSelect>
          <FieldError id="inquiry-owner-error" message={shown.owner} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="inquiry-follow-up">Follow up on</Label>
          <Input
            id="inquiry-follow-up"
            name="followUpOn"
            type="date"
            defaultValue={echo?.values.followUpOn ?? inquiry.followUpOn ?? ""}
            aria-invalid={shown.followUpOn ? true : undefined}
            aria-describedby={shown.followUpOn ? "inquiry-follow-up-error" : undefined}
          />
          <FieldError id="inquiry-follow-up-error" message={shown.followUpOn} />
        </div>
        <div>
          <Button type="submit" size="sm" disabled={busy}>
            {busy ? "Saving..." : "Save"}
          </Button>
        </div>
      </fetcher.Form>
    </Section>
  );
}

function NotesSection({ page, answer }: { page: AdminInquiryPage; answer?: FormAnswer }) {
  const fetcher = useFetcher<FormAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const busy = fetcher.state !== "idle";
  useFormAnswer(fetcher, {
    onSuccess: () => {
      formRef.current?.reset();
      setErrors({});
    },
    onFailure: (failed) => setErrors(failed.fieldErrors),
  });
  const echo = echoOf(answer, "note");
  const error = errors.text ?? echo?.errors.text;
  return (
    <Section title="Notes">
      <fetcher.Form
        method="post"
        ref={formRef}
        className="grid gap-2"
        aria-label="Add a note"
        noValidate
        onSubmit={(event) => setErrors(checkBeforePost(event, inquiryNoteSchema) ?? {})}
      >
        <input type="hidden" name="intent" value="note" />
        <Label htmlFor="inquiry-note">Internal note</Label>
        <Textarea
          id="inquiry-note"
          name="text"
          rows={3}
          maxLength={INQUIRY_NOTE_MAX_LENGTH}
          defaultValue={echo?.values.text}
          placeholder="Only staff see notes: a call with them, a quote that is coming…"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "inquiry-note-error" : undefined}
        />
        <FieldError id="inquiry-note-error" message={error} />
        <div>
          <Button type="submit" size="sm" disabled={busy}>
            <MessageSquarePlus aria-hidden />
            {busy ? "Adding..." : "Add Note"}
          </Button>
        </div>
      </fetcher.Form>
      {page.notes.length ? (
        <ol aria-label="Notes" className="mt-4 grid gap-3">
          {page.notes.map((note) => (
            <li key={note.id} className="text-sm">
              <p className="text-xs text-muted-foreground">
                {note.author} ·{" "}
                <time dateTime={note.createdAt}>{formatDateTime(note.createdAt)}</time>
              </p>
              <p className="mt-1 rounded-md bg-muted/50 p-2 whitespace-pre-wrap [overflow-wrap:anywhere]">
                {note.body}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-4 text-sm text-muted-foreground">No notes yet.</p>
      )}
    </Section>
  );
}

export function InquiryPageView({
  page,
  composerKey,
  answer,
}: {
  page: AdminInquiryPage;
  /** A new one each time the page's data is read: the next reply's submission key. */
  composerKey: string;
  /** The answer to a post without JavaScript (a refused one is shown on its form). */
  answer?: FormAnswer;
}) {
  const { inquiry } = page;
  const owner = page.staff.find((s) => s.id === inquiry.ownerId);
  return (
    <>
      <Link
        to="/admin/inquiries"
        className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to Inquiries
      </Link>
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{inquiry.name}</h1>
        <InquiryTypeBadge type={inquiry.inquiryType} />
        <InquiryStatusBadge status={inquiry.status} />
        {inquiry.spamReason ? <SuspectedSpamBadge reason={inquiry.spamReason} /> : null}
      </div>
      <div className="mb-4">
        <Button asChild variant="outline" size="sm">
          <Link to={`/admin/quotes/new?inquiry=${encodeURIComponent(inquiry.id)}`}>
            <FilePlus aria-hidden />
            Make a quote
          </Link>
        </Button>
      </div>
      <p className="mb-6 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
        {inquiry.replyDue ? <ReplyDue due={inquiry.replyDue} /> : null}
        <span>Owner: {owner ? owner.name || owner.email : "nobody yet"}</span>
        {inquiry.followUpOn ? <span>Follow up on {formatDate(inquiry.followUpOn)}</span> : null}
      </p>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid content-start gap-6">
          <MessageSection page={page} />
          <ThreadSection page={page} composerKey={composerKey} answer={answer} />
        </div>
        <div className="grid content-start gap-6">
          <AssignSection page={page} answer={answer} />
          <NotesSection page={page} answer={answer} />
        </div>
      </div>
    </>
  );
}
