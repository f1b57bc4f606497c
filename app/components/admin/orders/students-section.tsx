import { useRef } from "react";
import { useFetcher } from "react-router";
import { Section } from "./section.tsx";
import { buyerName } from "#app/components/admin/order-parts.tsx";
import { controlProps, Field, fieldOf } from "#app/components/forms/fields.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { formatDateTime } from "#app/lib/admin/time.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import {
  ACCESS_INTENT,
  ACCESS_TEXT_MAX,
  accessTemplate,
  type AccessDetailsSent,
} from "#app/lib/orders/access-details.ts";
import { STUDENT_INTENT } from "#app/lib/orders/booking.ts";
import type { AdminOrderPage } from "#app/lib/orders/orders.ts";

/**
 * The order page's students: each one's name and e-mail and, on a paid on-demand order, when their
 * access details were sent, with a form to e-mail them from the template (completed by staff) or
 * to record that they went another way. Each form posts on its own (a fetcher with JavaScript, a
 * plain post without); the answer to a post without JavaScript is shown on its student.
 */
export function StudentsSection({ page, answer }: { page: AdminOrderPage; answer?: FormAnswer }) {
  const { order } = page;
  // One entry per place, numbered as the booker's page and the register number them.
  const people: { name: string | null; email: string | null }[] = order.isBuyerStudent
    ? [{ name: buyerName(order), email: order.buyerEmail }]
    : Array.from({ length: order.quantity }, (_, i) => {
        const s = order.students.find((student, at) => (student.position ?? at) === i);
        return s
          ? { name: `${s.firstName} ${s.lastName}`, email: s.email }
          : { name: null, email: null };
      });
  const pageAnswer = answer?.form === ACCESS_INTENT ? answer : undefined;
  // Orders that hold their places; the server decides (e.g. not after the date has ended).
  const changeable =
    ["pending", "invoiced", "paid"].includes(order.status) &&
    order.listStatus !== "refunded" &&
    !order.spamReason;
  if (order.isBuyerStudent && !page.access && !changeable) {
    return (
      <Section title={`Students (${order.quantity})`}>
        <p className="text-sm">
          The buyer attends: {buyerName(order)} &lt;{order.buyerEmail}&gt;
        </p>
      </Section>
    );
  }
  return (
    <Section title={`Students (${order.quantity})`}>
      {order.isBuyerStudent ? <p className="mb-2 text-sm">The buyer attends.</p> : null}
      <ol className="grid gap-3 text-sm">
        {people.map((person, i) => (
          <li key={i} className="grid gap-1">
            <div className="flex flex-wrap gap-x-2">
              <span className="font-medium">{person.name ?? "Name to follow"}</span>
              {person.email ? (
                <a
                  href={`mailto:${person.email}`}
                  className="[overflow-wrap:anywhere] text-muted-foreground hover:underline"
                >
                  {person.email}
                </a>
              ) : null}
            </div>
            {changeable ? (
              <ChangeStudent
                place={i + 1}
                student={person.name ?? "name to follow"}
                pageAnswer={
                  answer?.form === STUDENT_INTENT &&
                  answeredField(answer, "place") === String(i + 1)
                    ? answer
                    : undefined
                }
              />
            ) : null}
            {page.access && person.name ? (
              <AccessDetails
                position={i + 1}
                student={person.name}
                courseTitle={order.courseTitle}
                sent={page.access[i + 1] ?? null}
                pageAnswer={answeredPlace(pageAnswer) === String(i + 1) ? pageAnswer : undefined}
              />
            ) : null}
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** Which place a post without JavaScript answered: the success names it, a refusal echoes it. */
function answeredPlace(answer: FormAnswer | undefined): string | undefined {
  return answer ? answeredField(answer, "position") : undefined;
}

function answeredField(answer: FormAnswer, field: string): string | undefined {
  if (answer.ok) {
    const value = (answer as Record<string, unknown>)[field];
    return typeof value === "string" ? value : undefined;
  }
  return answer.values?.[field];
}

/**
 * 'Change student' (decision 0037): staff name who now holds the place — a late substitution on
 * the day, or one the booker asked for after their page's cut-off. The buyer and both students
 * are e-mailed.
 */
function ChangeStudent({
  place,
  student,
  pageAnswer,
}: {
  place: number;
  student: string;
  pageAnswer?: FormAnswer;
}) {
  const fetcher = useFetcher<FormAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  useFormAnswer(fetcher, { onSuccess: () => formRef.current?.reset() });
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data ?? pageAnswer;
  const failed = answer && !answer.ok ? answer : undefined;
  const baseId = `student-${place}`;
  const errors = failed?.fieldErrors ?? {};
  const field = (name: string, label: string, type = "text") => (
    <Field {...fieldOf(baseId, name, errors)} label={label} required look="admin">
      <Input
        {...controlProps(baseId, name, errors)}
        type={type}
        required
        autoComplete="off"
        defaultValue={failed?.values?.[name] ?? ""}
      />
    </Field>
  );
  return (
    <details
      open={Boolean(pageAnswer && !pageAnswer.ok)}
      className="rounded-md border border-border"
    >
      <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium">
        Change student<span className="sr-only"> of place {place}</span>
      </summary>
      {pageAnswer?.message ? (
        <p role={pageAnswer.ok ? "status" : "alert"} className="px-3 text-xs">
          {pageAnswer.message}
        </p>
      ) : null}
      <fetcher.Form
        ref={formRef}
        method="post"
        className="grid gap-2 border-t border-border p-3 sm:grid-cols-3"
        aria-label={`New student for place ${place} (now ${student})`}
      >
        <input type="hidden" name="intent" value={STUDENT_INTENT} />
        <input type="hidden" name="place" value={place} />
        {field("first_name", "First name")}
        {field("last_name", "Last name")}
        {field("email", "E-mail", "email")}
        <Button
          type="submit"
          size="sm"
          disabled={busy}
          className="sm:col-span-3 sm:justify-self-start"
        >
          Change student
        </Button>
      </fetcher.Form>
    </details>
  );
}

function AccessDetails({
  position,
  student,
  courseTitle,
  sent,
  pageAnswer,
}: {
  position: number;
  student: string;
  courseTitle: string;
  sent: AccessDetailsSent | null;
  pageAnswer?: FormAnswer;
}) {
  const fetcher = useFetcher<FormAnswer>();
  useFormAnswer(fetcher);
  const busy = fetcher.state !== "idle";
  const failed = pageAnswer && !pageAnswer.ok ? pageAnswer : undefined;
  const textError = failed?.fieldErrors?.text;
  const textId = `access-text-${position}`;
  return (
    <div className="grid gap-1">
      <p className="text-xs text-muted-foreground" data-testid="access-details-status">
        {sent
          ? `Access details sent ${formatDateTime(sent.sentAt)} by ${sent.sentBy} (${sent.emailed ? "by e-mail" : "another way"})`
          : "Access details not sent yet"}
      </p>
      {pageAnswer?.message ? (
        <p role={pageAnswer.ok ? "status" : "alert"} className="text-xs">
          {pageAnswer.message}
        </p>
      ) : null}
      <details open={Boolean(failed)} className="rounded-md border border-border">
        <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium">
          {sent ? "Send access details again" : "Send access details"}
          <span className="sr-only"> to {student}</span>
        </summary>
        <fetcher.Form
          method="post"
          className="grid gap-2 border-t border-border p-3"
          aria-label={`Access details for ${student}`}
        >
          <input type="hidden" name="intent" value={ACCESS_INTENT} />
          <input type="hidden" name="position" value={position} />
          <Label htmlFor={textId}>E-mail to {student}</Label>
          <Textarea
            id={textId}
            name="text"
            rows={8}
            maxLength={ACCESS_TEXT_MAX}
            defaultValue={failed?.values?.text ?? accessTemplate(student, courseTitle)}
            aria-invalid={textError ? true : undefined}
            aria-describedby={textError ? `${textId}-error` : undefined}
          />
          {textError ? (
            <p id={`${textId}-error`} role="alert" className="text-sm text-destructive">
              {textError}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" name="mode" value="email" size="sm" disabled={busy}>
              E-mail access details
            </Button>
            <Button
              type="submit"
              name="mode"
              value="record"
              size="sm"
              variant="outline"
              disabled={busy}
            >
              Record as sent another way
            </Button>
          </div>
        </fetcher.Form>
      </details>
    </div>
  );
}
