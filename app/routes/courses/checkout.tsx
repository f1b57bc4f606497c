import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, data, redirect, useFetcher, useNavigate } from "react-router";
import { ArrowLeft, CreditCard, ExternalLink, FileText, GraduationCap, Info } from "lucide-react";
import { CourseQuoteDialog } from "#app/components/forms/course-quote-dialog.tsx";
import { controlProps, Field } from "#app/components/forms/form-parts.tsx";
import { HoneypotField } from "#app/components/forms/honeypot-field.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { failure, readPostedForm, unreadable } from "#server/forms/form-post.server.ts";
import { CheckoutErrorBoundary } from "#app/components/checkout/course-not-found.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import {
  FIELD,
  MAX_QUANTITY,
  MESSAGES,
  checkCheckout,
  clampQuantity,
  readCheckoutForm,
  type StudentMode,
} from "#app/lib/checkout.ts";
import {
  echoValues,
  focusFirstInvalid,
  keepFormOnFailure,
  type FieldErrors,
  type FormAnswer,
} from "#app/lib/forms.ts";
import { formatPence } from "#app/lib/format.ts";
import { FORM_FIELD } from "#app/lib/inquiry-schemas.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { toast } from "#app/lib/toast.ts";
import { clientAddress } from "#server/abuse.server.ts";
import { loadCheckout, submitCheckout } from "#server/payments/checkout.server.ts";
import type { Route } from "./+types/checkout";

export async function loader({ params }: Route.LoaderArgs) {
  const checkout = await loadCheckout(params.slug);
  if (!checkout) throw data({ reason: "course_not_found" }, { status: 404 });
  return checkout;
}

/** The checkout's answer (`form: "checkout"`; the page may also show the quote dialog's). */
type CheckoutAnswer = FormAnswer<{
  kind: "card" | "invoice" | "update";
  url?: string;
  redirectTo?: string;
  /** 'Update' without JavaScript: what was posted, drawn again. */
  values?: Record<string, string>;
}>;

export async function action(args: Route.ActionArgs) {
  const { request, params, context } = args;
  // Read a copy: a post from the quote dialog is handed, unread, to the shared inquiry action.
  const posted = await readPostedForm(request.clone());
  if (posted.ok && posted.formData.get(FORM_FIELD) !== null) return inquiryAction(args);
  if (!posted.ok) return unreadable("checkout", posted);
  const form = posted.formData;
  const enhanced = form.get(FIELD.enhanced) === "1";
  const outcome = await submitCheckout(params.slug, form, clientAddress(context));
  const noStore = { "Cache-Control": "no-store" };
  const answer = (kind: "card" | "invoice" | "update", extra: object = {}) =>
    data<CheckoutAnswer>({ ok: true, form: "checkout", kind, ...extra }, { headers: noStore });
  switch (outcome.kind) {
    case "not_found":
      throw data({ reason: "course_not_found" }, { status: 404 });
    case "update":
      return answer("update", { values: echoValues(form, "all", 300) });
    case "card":
      // Without JavaScript the browser goes straight to Stripe; with it, the page opens a tab.
      if (!enhanced) throw redirect(outcome.url, { status: 303 });
      return answer("card", { url: outcome.url });
    case "invoice": {
      const to = `/courses/${encodeURIComponent(params.slug)}/success?invoice=true`;
      if (!enhanced) throw redirect(to, { status: 303 });
      return answer("invoice", { redirectTo: to });
    }
    case "problem":
      return failure(outcome.status, {
        form: "checkout",
        formData: form,
        names: "all",
        reason:
          outcome.status === 400 ? "invalid" : outcome.status === 429 ? "rate_limited" : "error",
        title: outcome.message.title,
        message: outcome.message.description,
        fieldErrors: outcome.fieldErrors,
      });
  }
}

export const clientAction = keepFormOnFailure;

export function headers() {
  return { "Cache-Control": "no-store" };
}

export const meta: Route.MetaFunction = (args) => {
  const title = args.loaderData?.course.title;
  return pageMeta(args, {
    title: title ? `Checkout: ${title}` : "Course Not Found",
    description: title
      ? `Book ${title} online: pay by card or request an invoice.`
      : "This course could not be found.",
    noindex: true,
  });
};

function isCheckoutAnswer(value: unknown): value is CheckoutAnswer {
  return (
    typeof value === "object" && value !== null && "form" in value && value.form === "checkout"
  );
}

export default function Checkout({ loaderData, actionData, params }: Route.ComponentProps) {
  const { course, cardPaymentsEnabled } = loaderData;
  const coursePath = `/courses/${encodeURIComponent(params.slug)}`;
  const pageAnswer = isCheckoutAnswer(actionData) ? actionData : undefined;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <Link
        to={coursePath}
        className="inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Back to Course
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Checkout</h1>
      <p className="mt-2 text-muted-foreground">
        Book <span className="text-foreground">{course.title}</span> for yourself or for up to{" "}
        {MAX_QUANTITY} colleagues.
      </p>
      {course.unitPriceCents === null ? (
        <NotForSale course={course} coursePath={coursePath} />
      ) : (
        <CheckoutForm
          course={{ ...course, unitPriceCents: course.unitPriceCents }}
          cardPaymentsEnabled={cardPaymentsEnabled}
          pageAnswer={pageAnswer}
        />
      )}
    </div>
  );
}

type Course = Route.ComponentProps["loaderData"]["course"];

function NotForSale({ course, coursePath }: { course: Course; coursePath: string }) {
  return (
    <div className="mt-8 grid gap-6 lg:grid-cols-[1fr_22rem]">
      <Card>
        <CardHeader>
          <CardTitle as="h2">This course can't be booked online</CardTitle>
          <CardDescription>
            {course.title} has no online price yet. Tell us how many people you'd like to train and
            how, and our training team will send you a quote within 24 hours.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-3">
          <CourseQuoteDialog course={{ id: course.id, title: course.title }} modality="online">
            <Button>Request a Quote</Button>
          </CourseQuoteDialog>
          <Link to={coursePath} className={buttonVariants({ variant: "outline" })}>
            Back to Course
          </Link>
        </CardContent>
      </Card>
      <CourseSummaryHeader course={course} />
    </div>
  );
}

function CourseSummaryHeader({ course }: { course: Course }) {
  return (
    <div className="flex gap-4">
      {course.thumbnailUrl ? (
        <img
          src={course.thumbnailUrl}
          alt=""
          width={96}
          height={64}
          className="h-16 w-24 shrink-0 rounded-md border border-border object-cover"
        />
      ) : (
        <div className="flex h-16 w-24 shrink-0 items-center justify-center rounded-md border border-border bg-muted">
          <GraduationCap className="size-6 text-muted-foreground" aria-hidden />
        </div>
      )}
      <div>
        <p className="font-semibold">{course.title}</p>
        <p className="text-sm text-muted-foreground">
          {course.durationHours === null
            ? "Duration to be confirmed"
            : `${course.durationHours} ${course.durationHours === 1 ? "hour" : "hours"}`}
        </p>
      </div>
    </div>
  );
}

function CheckoutForm({
  course,
  cardPaymentsEnabled,
  pageAnswer,
}: {
  course: Course & { unitPriceCents: number };
  cardPaymentsEnabled: boolean;
  pageAnswer: CheckoutAnswer | undefined;
}) {
  const fetcher = useFetcher<CheckoutAnswer>();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  // Without JavaScript, a failed post or an 'Update' redraws the page with what was typed.
  const posted = pageAnswer?.values ?? {};
  const initialMode: StudentMode = posted[FIELD.studentMode] === "others" ? "others" : "self";
  // The inputs are uncontrolled: the form holds what the visitor typed and chose, and the state
  // below only follows it (for the student blocks and the summary), so hydration never resets it.
  const [hydrated, setHydrated] = useState(false);
  const [mode, setMode] = useState<StudentMode>(initialMode);
  const [quantity, setQuantity] = useState<number>(
    initialMode === "others" ? clampQuantity(Number(posted[FIELD.quantity])) : 1,
  );
  // What a field starts with when it is drawn: the posted values (no-JS answer) until the visitor
  // switches to 'Myself', which clears the students.
  const [defaults, setDefaults] = useState<Record<string, string>>(posted);
  const [errors, setErrors] = useState<FieldErrors>(
    pageAnswer && !pageAnswer.ok ? pageAnswer.fieldErrors : {},
  );
  const [paymentUrl, setPaymentUrl] = useState<string | null>(null);
  const busy = fetcher.state !== "idle";
  const pageMessage =
    pageAnswer && !pageAnswer.ok
      ? { title: pageAnswer.title ?? MESSAGES.paymentError.title, description: pageAnswer.message }
      : null;

  // The page may have been used before its scripts ran: on hydration, read who the booking is
  // for and how many places from the form itself.
  useEffect(() => {
    const form = formRef.current;
    if (form) {
      const { values } = readCheckoutForm(new FormData(form));
      setMode(values.studentMode);
      setQuantity(values.studentMode === "others" ? clampQuantity(values.quantity) : 1);
    }
    setHydrated(true);
  }, []);

  useFormAnswer(fetcher, {
    // The card tab opens at once (a popup blocker is more lenient right after the click); the
    // rest waits until the page's data has reloaded, so navigating away cannot race it.
    immediate: (answer) => answer.ok && answer.kind === "card",
    successToast: (answer) => (answer.kind === "invoice" ? MESSAGES.invoiceRequested : null),
    failureToast: (answer) =>
      answer.title && answer.message
        ? { title: answer.title, description: answer.message }
        : MESSAGES.paymentError,
    onSuccess: (answer) => {
      setErrors({});
      if (answer.kind === "card" && answer.url) {
        // Spec §4: the payment page opens in a new tab; the notice below links to it in case a
        // popup blocker stopped it.
        window.open(answer.url, "_blank", "noopener,noreferrer");
        setPaymentUrl(answer.url);
      } else if (answer.kind === "invoice" && answer.redirectTo) {
        navigate(answer.redirectTo);
      }
    },
    onFailure: (answer) => {
      setErrors(answer.fieldErrors);
      focusFirstInvalid(formRef.current, answer.fieldErrors);
    },
  });

  // 'Myself' unmounts the quantity and the student blocks: they come back as 1 and empty.
  function chooseMode(next: StudentMode) {
    setMode(next);
    if (next === "self") {
      setQuantity(1);
      setDefaults(({ ...kept }) => {
        for (const name of Object.keys(kept)) if (name.startsWith("students[")) delete kept[name];
        return kept;
      });
    }
  }

  // Checked in the browser first (same rules as the server), so a typo costs no round trip.
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const { intent, values } = readCheckoutForm(new FormData(event.currentTarget, submitter));
    if (intent === "update") return;
    const problem = checkCheckout(values);
    setErrors(problem?.fieldErrors ?? {});
    if (problem) {
      event.preventDefault();
      toast({ ...problem.toast, variant: "destructive" });
      focusFirstInvalid(event.currentTarget, problem.fieldErrors);
    }
  }

  /** Clears a field's message as soon as the visitor edits it. */
  function onEdit(event: FormEvent<HTMLFormElement>) {
    const name = (event.target as HTMLInputElement).name;
    if (name && errors[name]) setErrors(({ [name]: _removed, ...rest }) => rest);
  }

  // Before hydration (and without JavaScript) all the blocks are sent; the style sheet shows as
  // many as the form's own choice asks for (app.css, [data-student-blocks]).
  const studentBlocks = hydrated ? (mode === "others" ? quantity : 0) : MAX_QUANTITY;
  const places = mode === "others" ? quantity : 1;
  const total = course.unitPriceCents * places;
  const field = { errors, defaults };

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={onSubmit}
      onChange={onEdit}
      className="mt-8 grid gap-6 lg:grid-cols-[1fr_24rem] lg:items-start"
      aria-label="Checkout"
    >
      {hydrated ? <input type="hidden" name={FIELD.enhanced} value="1" /> : null}
      <HoneypotField />
      <div className="grid gap-6">
        {pageMessage ? (
          <div
            role="alert"
            className="rounded-md border border-destructive/60 bg-destructive/10 p-4 text-sm"
          >
            <p className="font-semibold">{pageMessage.title}</p>
            <p>{pageMessage.description}</p>
          </div>
        ) : null}

        <Card>
          <CardHeader>
            <CardTitle as="h2">Billing Information</CardTitle>
            <CardDescription>Who is paying for this booking.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <TextField
              {...field}
              name={FIELD.firstName}
              label="First Name"
              required
              autoComplete="given-name"
            />
            <TextField
              {...field}
              name={FIELD.lastName}
              label="Last Name"
              required
              autoComplete="family-name"
            />
            <TextField
              {...field}
              name={FIELD.email}
              label="Email"
              type="email"
              required
              autoComplete="email"
            />
            <TextField {...field} name={FIELD.phone} label="Phone" type="tel" autoComplete="tel" />
            <TextField
              {...field}
              name={FIELD.company}
              label="Company"
              autoComplete="organization"
              className="sm:col-span-2"
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Student Information</CardTitle>
            <CardDescription>Who will take the course.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <fieldset className="grid gap-3">
              <legend className="mb-2 text-sm font-medium">This booking is for</legend>
              <label className="flex cursor-pointer items-center gap-3 text-sm">
                <input
                  type="radio"
                  name={FIELD.studentMode}
                  value="self"
                  defaultChecked={initialMode === "self"}
                  onChange={() => chooseMode("self")}
                  className="size-4 accent-primary"
                />
                Myself (1 place)
              </label>
              <label className="flex cursor-pointer items-center gap-3 text-sm">
                <input
                  type="radio"
                  name={FIELD.studentMode}
                  value="others"
                  defaultChecked={initialMode === "others"}
                  onChange={() => chooseMode("others")}
                  className="size-4 accent-primary"
                />
                Someone else (1 to {MAX_QUANTITY} students)
              </label>
            </fieldset>

            {/* Before hydration and without JavaScript the quantity is always offered; the style
                sheet shows the blocks it asks for, and 'Update' redraws them for old browsers. */}
            {mode === "others" || !hydrated ? (
              <Field
                baseId={BASE_ID}
                name={FIELD.quantity}
                label="Number of students"
                errors={errors}
                className="max-w-xs"
              >
                <NativeSelect
                  {...controlProps(BASE_ID, FIELD.quantity, errors)}
                  // Drawn afresh after 'Myself' (quantity 1); later changes of the prop are ignored.
                  defaultValue={String(quantity)}
                  onChange={(e) => setQuantity(clampQuantity(Number(e.target.value)))}
                >
                  {Array.from({ length: MAX_QUANTITY }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            ) : null}
            {!hydrated ? (
              <div className="flex flex-wrap items-center gap-3 text-sm text-muted-foreground">
                <Button
                  type="submit"
                  name={FIELD.intent}
                  value="update"
                  variant="outline"
                  size="sm"
                >
                  Update student details
                </Button>
                <span>after changing who the booking is for or the number of students.</span>
              </div>
            ) : null}

            <div data-student-blocks className="contents">
              {Array.from({ length: studentBlocks }, (_, i) => (
                <StudentBlock key={i} index={i} {...field} />
              ))}
            </div>
            {mode === "self" && hydrated ? (
              <p className="text-sm text-muted-foreground">
                You will attend the course yourself; joining details go to your billing email.
              </p>
            ) : null}
          </CardContent>
        </Card>
      </div>

      <Card className="lg:sticky lg:top-24">
        <CardHeader>
          <CardTitle as="h2">Booking Summary</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-5">
          <CourseSummaryHeader course={course} />
          <dl className="grid grid-cols-[1fr_auto] gap-y-2 text-sm">
            <dt className="text-muted-foreground">Price per student</dt>
            <dd data-testid="unit-price">{formatPence(course.unitPriceCents)}</dd>
            <dt className="text-muted-foreground">Quantity</dt>
            <dd data-testid="quantity">{places}</dd>
            <dt className="border-t border-border pt-2 font-semibold">Total</dt>
            <dd data-testid="total" className="border-t border-border pt-2 text-lg font-semibold">
              {formatPence(total)}
            </dd>
          </dl>

          {paymentUrl ? (
            <div
              role="status"
              className="grid gap-2 rounded-md border border-info/40 bg-info/10 p-4 text-sm"
            >
              <p className="font-semibold">Secure payment opened in a new tab</p>
              <p>
                Complete your payment on Stripe's page in the new tab. If no tab opened (a popup
                blocker may have stopped it), continue here:
              </p>
              <a
                href={paymentUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonVariants({ size: "sm" })}
              >
                Continue to payment
                <ExternalLink aria-hidden />
              </a>
            </div>
          ) : null}

          <div className="grid gap-3">
            <Button
              type="submit"
              name={FIELD.intent}
              value="card"
              size="lg"
              disabled={!cardPaymentsEnabled || busy}
              aria-describedby={cardPaymentsEnabled ? undefined : "card-unavailable"}
            >
              <CreditCard aria-hidden />
              {busy && fetcher.formData?.get(FIELD.intent) === "card"
                ? "Processing..."
                : "Pay with Card"}
            </Button>
            {cardPaymentsEnabled ? null : (
              <p id="card-unavailable" className="flex gap-2 text-sm text-muted-foreground">
                <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
                Card payments are not available on this site at the moment. Request a manual invoice
                instead: we'll e-mail it within 24 hours.
              </p>
            )}
            <Button
              type="submit"
              name={FIELD.intent}
              value="invoice"
              size="lg"
              variant="outline"
              disabled={busy}
            >
              <FileText aria-hidden />
              {busy && fetcher.formData?.get(FIELD.intent) === "invoice"
                ? "Processing..."
                : "Request Manual Invoice"}
            </Button>
            <p className="text-xs text-muted-foreground">
              Card payments are handled by Stripe; your card details never reach our servers.
            </p>
          </div>
        </CardContent>
      </Card>
    </fetcher.Form>
  );
}

const BASE_ID = "checkout";

type FieldState = { errors: FieldErrors; defaults: Record<string, string> };

/** One student's details: uncontrolled, so what is typed stays in the form whatever React does. */
function StudentBlock({ index, ...field }: { index: number } & FieldState) {
  return (
    <fieldset className="grid gap-4 rounded-md border border-border p-4 sm:grid-cols-3">
      <legend className="px-1 text-sm font-semibold">Student {index + 1}</legend>
      <TextField {...field} name={FIELD.student(index, "firstName")} label="First Name" required />
      <TextField {...field} name={FIELD.student(index, "lastName")} label="Last Name" required />
      <TextField
        {...field}
        name={FIELD.student(index, "email")}
        label="Email"
        type="email"
        required
      />
    </fieldset>
  );
}

/** A checkout input with its label and message, as every form of the site draws them. */
function TextField({
  name,
  label,
  required,
  type = "text",
  autoComplete,
  className,
  errors,
  defaults,
}: {
  name: string;
  label: string;
  required?: boolean;
  type?: string;
  autoComplete?: string;
  className?: string;
} & FieldState) {
  return (
    <Field
      baseId={BASE_ID}
      name={name}
      label={label}
      required={required}
      errors={errors}
      className={className}
    >
      <Input
        {...controlProps(BASE_ID, name, errors)}
        type={type}
        autoComplete={autoComplete}
        aria-required={required ? true : undefined}
        defaultValue={defaults[name] ?? ""}
      />
    </Field>
  );
}

export const ErrorBoundary = CheckoutErrorBoundary;
