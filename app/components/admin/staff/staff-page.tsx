import { Send, ShieldCheck, ShieldOff, Trash2, UserPlus } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { Form, Link, useFetcher } from "react-router";
import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { useHydrated } from "#app/components/forms/form-parts.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { formatDateTime } from "#app/lib/admin/time.ts";
import { focusFirstInvalid, parseForm, type FieldErrors } from "#app/lib/forms.ts";
import {
  PASSWORD_LINK_LIFETIME,
  staffInviteSchema,
  type StaffAnswer,
  type StaffMember,
} from "#app/lib/admin/staff.ts";
import { EmailAddress } from "#app/components/ui/email-address.tsx";

/**
 * The Staff screen (decision 0018): the admins, "Invite admin", and per row "Resend invitation",
 * "Reset two-factor" and "Remove". Every form posts to the screen's action and works without
 * JavaScript: "Remove" and "Reset two-factor" then open a confirmation on the page itself
 * (`?remove=<id>`, `?reset-two-factor=<id>`) instead of the dialog.
 */

export const STAFF_PATH = "/admin/staff";

/**
 * The rows' actions share one fetcher, whose answer the screen itself turns into a toast: a
 * removed row leaves the list (and its own component with it) when the data reloads, which on a
 * busy machine can be in the same render as the answer.
 */
const ROW_ACTIONS_FETCHER = "staff-row-actions";

export function StaffPageView({
  staff,
  meId,
  removing,
  resettingTwoFactor,
  answer,
}: {
  staff: StaffMember[];
  meId: string;
  /** The admin whose removal is being confirmed without JavaScript (`?remove=`). */
  removing: StaffMember | null;
  /** The admin whose two-factor reset is being confirmed without JavaScript. */
  resettingTwoFactor: StaffMember | null;
  /** The action's answer after a post without JavaScript (with it, answers are toasts). */
  answer: StaffAnswer | undefined;
}) {
  const headingId = useId();
  useFormAnswer(useFetcher<StaffAnswer>({ key: ROW_ACTIONS_FETCHER }));
  return (
    <div>
      <AdminPageHeader
        title="Staff"
        description="The people who can sign in to this admin area. Invite a colleague by e-mail; they choose their own password."
      />
      {answer && answer.form !== "invite" ? (
        <p role="status" className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
          {answer.message}{" "}
          <Link to={STAFF_PATH} className="text-primary underline">
            Dismiss
          </Link>
        </p>
      ) : null}
      {removing ? (
        <ConfirmationPanel
          id="staff-remove"
          intent="remove"
          member={removing}
          question={`Remove ${removing.email}?`}
          detail={removeDetail(removing)}
          confirmLabel="Remove admin"
        />
      ) : null}
      {resettingTwoFactor ? (
        <ConfirmationPanel
          id="staff-reset-two-factor"
          intent="reset-two-factor"
          member={resettingTwoFactor}
          question={`Reset two-factor sign-in for ${resettingTwoFactor.email}?`}
          detail={resetDetail(resettingTwoFactor)}
          confirmLabel="Reset two-factor"
        />
      ) : null}
      <InviteForm pageAnswer={answer?.form === "invite" ? answer : undefined} />
      <section aria-labelledby={headingId} className="rounded-lg border border-border bg-card">
        <h2 id={headingId} className="p-4 text-lg font-semibold">
          Admins ({staff.length})
        </h2>
        {/* Below 768 px: one card per admin, the same actions (no sideways scrolling). */}
        <ul className="divide-y divide-border border-t border-border md:hidden">
          {staff.map((member) => (
            <li key={member.id} className="grid gap-3 p-4">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="min-w-0 font-medium">
                  <EmailAddress email={member.email} />
                </h3>
                <StaffBadges member={member} isMe={member.id === meId} />
              </div>
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
                <dt className="text-muted-foreground">Added</dt>
                <dd>{formatDateTime(member.createdAt)}</dd>
                <dt className="text-muted-foreground">Two-factor</dt>
                <dd>
                  <TwoFactorBadge on={member.twoFactorEnabled} />
                </dd>
                <dt className="text-muted-foreground">Last sign-in</dt>
                <dd>{member.lastSignInAt ? formatDateTime(member.lastSignInAt) : "—"}</dd>
              </dl>
              <StaffRowActions member={member} isMe={member.id === meId} />
            </li>
          ))}
        </ul>
        <Table wrapperClassName="hidden md:block">
          <TableHeader>
            <TableRow>
              <TableHead>Email</TableHead>
              <TableHead>Added</TableHead>
              <TableHead>Two-factor</TableHead>
              <TableHead>Last sign-in</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {staff.map((member) => (
              <TableRow key={member.id} data-staff-email={member.email}>
                <TableCell>
                  <div className="flex flex-wrap items-center gap-2">
                    <EmailAddress email={member.email} className="font-medium" />
                    <StaffBadges member={member} isMe={member.id === meId} />
                  </div>
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {formatDateTime(member.createdAt)}
                </TableCell>
                <TableCell>
                  <TwoFactorBadge on={member.twoFactorEnabled} />
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  {member.lastSignInAt ? formatDateTime(member.lastSignInAt) : "—"}
                </TableCell>
                <TableCell>
                  <StaffRowActions member={member} isMe={member.id === meId} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </section>
    </div>
  );
}

function StaffBadges({ member, isMe }: { member: StaffMember; isMe: boolean }) {
  return (
    <>
      {isMe ? <Badge variant="muted">You</Badge> : null}
      {member.invitationPending ? <Badge variant="warning">Invitation pending</Badge> : null}
    </>
  );
}

function TwoFactorBadge({ on }: { on: boolean }) {
  return on ? (
    <Badge variant="success">
      <ShieldCheck aria-hidden className="mr-1 size-3" />
      On
    </Badge>
  ) : (
    <Badge variant="muted">
      <ShieldOff aria-hidden className="mr-1 size-3" />
      Off
    </Badge>
  );
}

/** "Invite admin": one e-mail field; the schema runs here first, the server's answer counts. */
function InviteForm({ pageAnswer }: { pageAnswer: StaffAnswer | undefined }) {
  const fetcher = useFetcher<StaffAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>(
    pageAnswer && !pageAnswer.ok ? pageAnswer.fieldErrors : {},
  );
  // Bumped after a success: a fresh, empty field.
  const [version, setVersion] = useState(0);
  useFormAnswer(fetcher, {
    onSuccess: () => {
      setErrors({});
      setVersion((v) => v + 1);
    },
    onFailure: (failed) => {
      setErrors(failed.fieldErrors);
      focusFirstInvalid(formRef.current, failed.fieldErrors);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const parsed = parseForm(new FormData(event.currentTarget), staffInviteSchema);
    if (!parsed.ok) {
      event.preventDefault();
      setErrors(parsed.fieldErrors);
      focusFirstInvalid(event.currentTarget, parsed.fieldErrors);
      return;
    }
    setErrors({});
  }

  const busy = fetcher.state !== "idle";
  const error = errors.email;
  const initial =
    version === 0 && pageAnswer && !pageAnswer.ok ? (pageAnswer.values?.email ?? "") : "";
  return (
    <section
      aria-labelledby="staff-invite-heading"
      className="mb-6 rounded-lg border border-border bg-card p-4"
    >
      <h2 id="staff-invite-heading" className="text-lg font-semibold">
        Invite admin
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        We e-mail them a link to set their password. It works once and expires in{" "}
        {PASSWORD_LINK_LIFETIME}; you can resend it.
      </p>
      {pageAnswer?.ok ? (
        <p role="status" className="mt-3 rounded-md border border-border p-3 text-sm">
          {pageAnswer.message}
        </p>
      ) : pageAnswer && !pageAnswer.ok && !pageAnswer.fieldErrors.email ? (
        <p role="alert" className="mt-3 text-sm text-destructive">
          {pageAnswer.message}
        </p>
      ) : null}
      <fetcher.Form
        key={version}
        ref={formRef}
        method="post"
        action={STAFF_PATH}
        noValidate
        onSubmit={onSubmit}
        onInput={() => error && setErrors({})}
        className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <input type="hidden" name="intent" value="invite" />
        <div className="grid flex-1 gap-2">
          <Label htmlFor="staff-invite-email">Email</Label>
          <Input
            id="staff-invite-email"
            name="email"
            type="email"
            autoComplete="off"
            required
            maxLength={254}
            defaultValue={initial}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "staff-invite-email-error" : undefined}
          />
          {error ? (
            <p id="staff-invite-email-error" role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={busy} className="sm:mt-[1.375rem]">
          <UserPlus aria-hidden />
          {busy ? "Sending..." : "Send invitation"}
        </Button>
      </fetcher.Form>
    </section>
  );
}

function StaffRowActions({ member, isMe }: { member: StaffMember; isMe: boolean }) {
  const fetcher = useFetcher<StaffAnswer>({ key: ROW_ACTIONS_FETCHER });
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  if (isMe && !member.invitationPending) return <span className="sr-only">None</span>;
  return (
    <div className="flex flex-wrap justify-end gap-2 lg:flex-nowrap">
      {member.invitationPending ? (
        <fetcher.Form method="post" action={STAFF_PATH}>
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="userId" value={member.id} />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            disabled={busy}
            aria-label={`Resend invitation to ${member.email}`}
          >
            <Send aria-hidden />
            Resend invitation
          </Button>
        </fetcher.Form>
      ) : null}
      {isMe || !member.twoFactorEnabled ? null : hydrated ? (
        <ConfirmAction
          trigger={
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={busy}
              aria-label={`Reset two-factor sign-in for ${member.email}`}
            >
              <ShieldOff aria-hidden />
              Reset two-factor
            </Button>
          }
          question={`Reset two-factor sign-in for ${member.email}?`}
          detail={resetDetail(member)}
          confirmLabel="Reset two-factor"
          destructive
          onConfirm={() =>
            fetcher.submit(
              { intent: "reset-two-factor", userId: member.id },
              { method: "post", action: STAFF_PATH },
            )
          }
        />
      ) : (
        <Button asChild size="sm" variant="outline">
          <Link to={`${STAFF_PATH}?reset-two-factor=${encodeURIComponent(member.id)}`}>
            <ShieldOff aria-hidden />
            <span>
              Reset two-factor<span className="sr-only"> sign-in for {member.email}</span>
            </span>
          </Link>
        </Button>
      )}
      {isMe ? null : hydrated ? (
        <ConfirmAction
          trigger={
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={busy}
              aria-label={`Remove ${member.email}`}
              className="text-destructive hover:text-destructive"
            >
              <Trash2 aria-hidden />
              Remove
            </Button>
          }
          question={`Remove ${member.email}?`}
          detail={removeDetail(member)}
          confirmLabel="Remove admin"
          destructive
          onConfirm={() =>
            fetcher.submit(
              { intent: "remove", userId: member.id },
              { method: "post", action: STAFF_PATH },
            )
          }
        />
      ) : (
        // Before (or without) JavaScript: the confirmation is a page of its own.
        <Button asChild size="sm" variant="outline" className="text-destructive">
          <Link to={`${STAFF_PATH}?remove=${encodeURIComponent(member.id)}`}>
            <Trash2 aria-hidden />
            <span>
              Remove<span className="sr-only"> {member.email}</span>
            </span>
          </Link>
        </Button>
      )}
    </div>
  );
}

function removeDetail(member: StaffMember): string {
  return `${member.email} will be signed out at once and can no longer sign in. This cannot be undone; you can invite them again later.`;
}

function resetDetail(member: StaffMember): string {
  return `For when ${member.email} has lost their phone and their backup codes: their two-factor sign-in is turned off and they are signed out everywhere. They then sign in with their password and set two-factor sign-in up again. The reset is recorded in the audit log.`;
}

/** A row action without JavaScript: the same question as the dialog, as a form on the page. */
function ConfirmationPanel({
  id,
  intent,
  member,
  question,
  detail,
  confirmLabel,
}: {
  id: string;
  intent: "remove" | "reset-two-factor";
  member: StaffMember;
  question: string;
  detail: string;
  confirmLabel: string;
}) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      aria-describedby={`${id}-detail`}
      className="mb-6 rounded-lg border border-destructive bg-destructive/5 p-4"
    >
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {question}
      </h2>
      <p id={`${id}-detail`} className="mt-1 text-sm">
        {detail}
      </p>
      <Form method="post" action={STAFF_PATH} className="mt-4 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="userId" value={member.id} />
        <Button type="submit" variant="destructive">
          {confirmLabel}
        </Button>
        <Button asChild variant="outline">
          <Link to={STAFF_PATH}>Cancel</Link>
        </Button>
      </Form>
    </section>
  );
}
