import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, data, redirect, useFetcher, useNavigate, useRevalidator } from "react-router";
import { ArrowLeft } from "lucide-react";
import { CheckoutErrorBoundary } from "#app/components/checkout/course-not-found.tsx";
import { BookingSummary } from "#app/components/checkout/order-summary.tsx";
import {
  PaymentButtons,
  PaymentOpenedNotice,
  TermsAcceptance,
} from "#app/components/checkout/payment-buttons.tsx";
import {
  BillingInformation,
  StudentInformation,
} from "#app/components/checkout/student-fields.tsx";
import { SubmissionKeyField, useFormActionTo } from "#app/components/forms/form-parts.tsx";
import { HoneypotField } from "#app/components/forms/honeypot-field.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import {
  FIELD,
  MAX_QUANTITY,
  MESSAGES,
  checkCheckout,
  clampQuantity,
  readCheckoutForm,
  type CheckoutCourse,
  type CheckoutIntent,
  type StudentMode,
} from "#app/lib/checkout.ts";
import {
  echoValues,
  focusFirstInvalid,
  keepFormOnFailure,
  type FieldErrors,
  type FormAnswer,
} from "#app/lib/forms.ts";
import {
  COURSE_DATE_FIELD,
  COURSE_DATE_PARAM,
  formatUkDateTime,
} from "#app/lib/catalogue/course-dates.ts";
import {
  OFFER_FIELD,
  OFFER_PARAM,
  offersWaitingList,
  waitingListPath,
} from "#app/lib/catalogue/waiting-list.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { toast } from "#app/lib/ui/toast.ts";
import type { VatTerms } from "#app/lib/orders/vat.ts";
import { clientAddress } from "#server/abuse.server.ts";
import { formAction } from "#server/forms/form-action.server.ts";
import { failure } from "#server/forms/form-post.server.ts";
import { rememberOrder } from "#server/payments/buyer-orders.server.ts";
import { loadCheckout, submitCheckout } from "#server/payments/checkout.server.ts";
import type { CheckoutOffer } from "#server/catalogue/waiting-list.server.ts";
import type { Route } from "./+types/checkout";

export async function loader({ params, request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const dateId = query.get(COURSE_DATE_PARAM);
  const checkout = await loadCheckout(params.slug, dateId, query.get(OFFER_PARAM));
  if (!checkout) throw data({ reason: "course_not_found" }, { status: 404 });
  // A course with dates is booked by date; an unknown, past or cancelled date leads back to them.
  if (checkout.kind === "choose_date") {
    throw redirect(`/courses/${encodeURIComponent(checkout.slug)}#dates`);
  }
  // An open waiting list offer: its token goes back with the form, which its details fill in.
  const offerToken = checkout.offer?.kind === "open" ? query.get(OFFER_PARAM) : null;
  return { ...checkout, offerToken };
}

/** The checkout's answer (`form: "checkout"`). */
type CheckoutAnswer = FormAnswer<{
  kind: "card" | "invoice" | "update";
  url?: string;
  redirectTo?: string;
  /** 'Update' without JavaScript: what was posted, drawn again. */
  values?: Record<string, string>;
}>;

export function action({ request, params, context }: Route.ActionArgs) {
  return formAction(request, { form: "checkout" }, (form) =>
    answerCheckout(request, params.slug, form, clientAddress(context)),
  );
}

async function answerCheckout(request: Request, slug: string, form: FormData, client: string) {
  const enhanced = form.get(FIELD.enhanced) === "1";
  const outcome = await submitCheckout(slug, form, client);
  const noStore = { "Cache-Control": "no-store" };
  const answer = (kind: "card" | "invoice" | "update", extra: object = {}, cookie?: string) =>
    data<CheckoutAnswer>(
      { ok: true, form: "checkout", kind, ...extra },
      { headers: cookie ? { ...noStore, "Set-Cookie": cookie } : noStore },
    );
  switch (outcome.kind) {
    case "not_found":
      throw data({ reason: "course_not_found" }, { status: 404 });
    case "update":
      return answer("update", { values: echoValues(form, "all", 300) });
    case "card": {
      // This browser placed the order: its success page may show the order (and only to it).
      const cookie = await rememberOrder(request, outcome.orderId);
      // Without JavaScript the browser goes straight to Stripe; with it, the page opens a tab.
      if (!enhanced) {
        throw redirect(outcome.url, { status: 303, headers: { "Set-Cookie": cookie } });
      }
      return answer("card", { url: outcome.url }, cookie);
    }
    case "invoice": {
      const cookie = await rememberOrder(request, outcome.orderId);
      const to = `/courses/${encodeURIComponent(slug)}/success?invoice=true`;
      // A fragment of its own (the page's main content, at the top): a redirect without one
      // would carry over the checkout form's fragment the post was sent to.
      if (!enhanced) {
        throw redirect(`${to}#main`, { status: 303, headers: { "Set-Cookie": cookie } });
      }
      return answer("invoice", { redirectTo: to }, cookie);
    }
    case "problem":
      return failure(outcome.status, {
        form: "checkout",
        formData: form,
        names: "all",
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
  const { course, cardPaymentsEnabled, vat, offer, offerToken } = loaderData;
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
      {offer ? <OfferNotice offer={offer} /> : null}
      {course.date && offersWaitingList(course.date) ? (
        <FullyBookedNotice slug={params.slug} dateId={course.date.id} />
      ) : null}
      <CheckoutForm
        course={course}
        cardPaymentsEnabled={cardPaymentsEnabled}
        vat={vat}
        pageAnswer={pageAnswer}
        offerToken={offerToken}
        prefill={offer?.kind === "open" ? offerPrefill(offer) : undefined}
      />
    </div>
  );
}

const CHECKOUT_FORM_ID = "checkout-form";

function CheckoutForm({
  course,
  cardPaymentsEnabled,
  vat,
  pageAnswer,
  offerToken,
  prefill,
}: {
  course: CheckoutCourse;
  cardPaymentsEnabled: boolean;
  vat: VatTerms;
  pageAnswer: CheckoutAnswer | undefined;
  offerToken: string | null;
  prefill?: Record<string, string>;
}) {
  const fetcher = useFetcher<CheckoutAnswer>();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const formRef = useRef<HTMLFormElement>(null);
  // Without JavaScript, a failed post or an 'Update' redraws the page with what was typed.
  const posted = pageAnswer?.values ?? prefill ?? {};
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
  // Still busy once an invoice request is answered, until the page has moved on to the success
  // page: a click in between would only repeat it (the server answers a repeat with the same
  // order, server/forms/submit-once.server.ts).
  const movingOn = fetcher.data?.ok === true && fetcher.data.kind === "invoice";
  const busy = fetcher.state !== "idle" || movingOn;
  // Without JavaScript the answer (its errors at the top of the form) opens in view.
  const action = useFormActionTo(CHECKOUT_FORM_ID);
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
        // The payment page opens in a new tab; the notice below links to it in case a
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
      // Places ran out since the page was drawn: read them again (the most a group may book,
      // and the way to the waiting list when none are left). What was typed stays in the form.
      if (answer.reason === "conflict") revalidator.revalidate();
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
    const problem = checkCheckout(values, intent);
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
  const field = { errors, defaults };

  return (
    <fetcher.Form
      ref={formRef}
      id={CHECKOUT_FORM_ID}
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      onChange={onEdit}
      className="mt-8 grid gap-6 lg:grid-cols-[1fr_24rem] lg:items-start"
      aria-label="Checkout"
    >
      {hydrated ? <input type="hidden" name={FIELD.enhanced} value="1" /> : null}
      {course.date ? <input type="hidden" name={COURSE_DATE_FIELD} value={course.date.id} /> : null}
      {offerToken ? <input type="hidden" name={OFFER_FIELD} value={offerToken} /> : null}
      <SubmissionKeyField />
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
        <BillingInformation {...field} />
        <StudentInformation
          {...field}
          initialMode={initialMode}
          mode={mode}
          quantity={quantity}
          studentBlocks={studentBlocks}
          hydrated={hydrated}
          onModeChange={chooseMode}
          onQuantityChange={setQuantity}
          maxQuantity={Math.max(1, Math.min(MAX_QUANTITY, course.date?.placesLeft ?? MAX_QUANTITY))}
        />
      </div>

      <BookingSummary course={course} places={places} vat={vat}>
        <TermsAcceptance {...field} />
        {paymentUrl ? <PaymentOpenedNotice url={paymentUrl} /> : null}
        <PaymentButtons
          cardPaymentsEnabled={cardPaymentsEnabled}
          busy={busy}
          pending={pendingIntent(fetcher.formData)}
        />
      </BookingSummary>
    </fetcher.Form>
  );
}

/** Which button sent the post under way, if any. */
function pendingIntent(formData: FormData | undefined): CheckoutIntent | null {
  const intent = formData?.get(FIELD.intent);
  return intent === "card" || intent === "invoice" || intent === "update" ? intent : null;
}

/** The checkout's starting values from a waiting list offer (uncontrolled defaults). */
function offerPrefill(offer: Extract<CheckoutOffer, { kind: "open" }>): Record<string, string> {
  return {
    [FIELD.firstName]: offer.firstName,
    [FIELD.lastName]: offer.lastName,
    [FIELD.email]: offer.email,
    [FIELD.company]: offer.organisation ?? "",
    [FIELD.studentMode]: offer.places > 1 ? "others" : "self",
    [FIELD.quantity]: String(offer.places),
  };
}

/** What a waiting list offer's link says on the checkout: held until when, or no longer open. */
function OfferNotice({ offer }: { offer: CheckoutOffer }) {
  return offer.kind === "open" ? (
    <p role="status" className="mt-4 rounded-md border border-success/60 bg-success/10 p-4 text-sm">
      {offer.places === 1 ? "Your place is" : `Your ${offer.places} places are`} held for you until{" "}
      <time dateTime={offer.expiresAt}>{formatUkDateTime(offer.expiresAt)}</time>. We have filled in
      the details you gave us for the waiting list.
    </p>
  ) : (
    <p role="status" className="mt-4 rounded-md border border-border bg-muted p-4 text-sm">
      This waiting list offer is no longer open (it has expired, or been used). You can still book
      any places left.
    </p>
  );
}

/** A date with no place left can still be waited for: the way to its waiting list. */
function FullyBookedNotice({ slug, dateId }: { slug: string; dateId: string }) {
  return (
    <p
      role="status"
      data-testid="date-fully-booked"
      className="mt-4 rounded-md border border-border bg-muted p-4 text-sm"
    >
      This date is fully booked.{" "}
      <Link to={waitingListPath(slug, dateId)} className="font-medium underline">
        Join the waiting list
      </Link>{" "}
      to be offered places that free up, or{" "}
      <Link to={`/courses/${encodeURIComponent(slug)}#dates`} className="font-medium underline">
        choose another date
      </Link>
      .
    </p>
  );
}

export const ErrorBoundary = CheckoutErrorBoundary;
