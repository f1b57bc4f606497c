import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { controlProps, Field, fieldOf } from "#app/components/forms/fields.tsx";
import {
  CycleForm,
  FormMessage,
  SuccessPanel,
  useSubmitCycle,
} from "#app/components/forms/form-parts.tsx";
import {
  BOOKING_MESSAGES,
  FIND_BOOKING_FORM,
  findBookingSchema,
  STUDENT_FORM,
  studentSchema,
  type BookerPage,
  type BookerPlace,
} from "#app/lib/orders/booking.ts";
import { MovePlaceChoices, MoveTargetChoices } from "#app/components/forms/move-choices.tsx";
import { MOVE_MESSAGES, MOVE_REQUEST_FORM, moveRequestSchema } from "#app/lib/orders/moves.ts";

type BookerMove = NonNullable<BookerPage["move"]>;

/**
 * The booker's page's forms (decisions 0037, 0038): 'find my booking' (an address; the links go to
 * its mailbox), a place's student, and 'Ask to move'. Uncontrolled inputs and plain posts, so they work before and
 * without JavaScript (the page then shows the answer); with it, a fetcher and a toast.
 */

export function FindBookingForm() {
  const formId = "find-booking-form";
  const cycle = useSubmitCycle({
    form: FIND_BOOKING_FORM,
    formId,
    schema: findBookingSchema,
    successToast: () => ({ title: "Check your inbox", description: BOOKING_MESSAGES.linksSent }),
    failureToast: (result) => ({
      title: "Links not sent",
      description: result.message ?? BOOKING_MESSAGES.findFailed,
    }),
  });
  if (cycle.pageResult?.ok) {
    return (
      <SuccessPanel id={formId} title="Check your inbox" description={BOOKING_MESSAGES.linksSent} />
    );
  }
  return (
    <CycleForm cycle={cycle} form={FIND_BOOKING_FORM} id={formId} label="Find my booking">
      <fieldset disabled={cycle.busy} className="grid gap-4">
        <FormMessage message={cycle.formMessage} />
        <Field {...fieldOf(formId, "email", cycle.errors)} label="E-mail used to book" required>
          <Input
            {...controlProps(formId, "email", cycle.errors)}
            type="email"
            autoComplete="email"
            required
            defaultValue={cycle.initial.email}
          />
        </Field>
        <Button type="submit" className="w-full sm:w-auto sm:justify-self-start">
          {cycle.busy ? "Sending..." : "E-mail me my booking links"}
        </Button>
      </fieldset>
    </CycleForm>
  );
}

/** Names a place's student, or gives the place to someone else. */
export function StudentForm({ place, named }: { place: number; named: boolean }) {
  const formId = `student-form-${place}`;
  const cycle = useSubmitCycle({
    form: STUDENT_FORM,
    formId,
    schema: studentSchema,
    successToast: (result) => ({ title: "Student saved", description: result.message ?? "" }),
    failureToast: (result) => ({
      title: "Student not changed",
      description: result.message ?? BOOKING_MESSAGES.saveFailed,
    }),
  });
  const { errors, initial } = cycle;
  if (cycle.pageResult?.ok) {
    return (
      <SuccessPanel
        id={formId}
        title="Student saved"
        description={cycle.pageResult.message ?? ""}
      />
    );
  }
  const text = (name: string, label: string, props: Record<string, unknown>) => (
    <Field {...fieldOf(formId, name, errors)} label={label} required>
      <Input
        {...controlProps(formId, name, errors)}
        required
        defaultValue={initial[name]}
        {...props}
      />
    </Field>
  );
  return (
    <CycleForm
      cycle={cycle}
      form={STUDENT_FORM}
      id={formId}
      label={named ? `Change the student of place ${place}` : `Name the student of place ${place}`}
    >
      <input type="hidden" name="place" value={place} />
      <fieldset disabled={cycle.busy} className="grid gap-4">
        <FormMessage message={cycle.formMessage} />
        <div className="grid gap-4 sm:grid-cols-2">
          {text("first_name", "First name", { autoComplete: "off" })}
          {text("last_name", "Last name", { autoComplete: "off" })}
          {text("email", "E-mail", { type: "email", autoComplete: "off" })}
        </div>
        <Button type="submit" className="w-full sm:w-auto sm:justify-self-start">
          {cycle.busy ? "Saving..." : named ? "Give this place to them" : "Save student"}
        </Button>
      </fieldset>
    </CycleForm>
  );
}

/**
 * 'Ask to move' (decision 0038): a date with room and the places to move; staff approve or
 * decline it and e-mail the booker either way.
 */
export function MoveRequestForm({ move, places }: { move: BookerMove; places: BookerPlace[] }) {
  const formId = "move-request-form";
  const cycle = useSubmitCycle({
    form: MOVE_REQUEST_FORM,
    formId,
    schema: moveRequestSchema,
    successToast: () => ({ title: "Request sent", description: MOVE_MESSAGES.requested }),
    failureToast: (result) => ({
      title: "Request not sent",
      description: result.message ?? MOVE_MESSAGES.requestFailed,
    }),
  });
  if (cycle.pageResult?.ok) {
    return <SuccessPanel id={formId} title="Request sent" description={MOVE_MESSAGES.requested} />;
  }
  const placesError = cycle.errors.places;
  return (
    <CycleForm cycle={cycle} form={MOVE_REQUEST_FORM} id={formId} label="Ask to move places">
      <fieldset disabled={cycle.busy} className="grid gap-4">
        <FormMessage message={cycle.formMessage} />
        <MoveTargetChoices targets={move.targets} />
        <MovePlaceChoices places={places} error={placesError} errorId={`${formId}-places-error`} />
        <p className="text-sm text-muted-foreground">
          If the new date&apos;s price differs, we re-issue your invoice or credit the difference.
        </p>
        <Button type="submit" className="w-full sm:w-auto sm:justify-self-start">
          {cycle.busy ? "Sending..." : "Ask to move"}
        </Button>
      </fieldset>
    </CycleForm>
  );
}
