import { type ReactNode } from "react";
import { Form, Link, useNavigate } from "react-router";
import {
  CatalogueForm,
  useCatalogueForm,
} from "#app/components/admin/catalogue/catalogue-page.tsx";
import {
  SelectField,
  TextareaField,
  TextField,
  unreadableNumbers,
} from "#app/components/forms/fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  COURSE_DATE_FORMAT_LABELS,
  courseDateFormSchema,
  MAX_CAPACITY,
  MIN_CAPACITY,
  toUkWallTime,
  type AdminCourseDate,
  type CourseDateCourseOption,
} from "#app/lib/catalogue/course-date-form.ts";
import { COURSE_DATE_FORMATS, formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { type FormAnswer } from "#app/lib/forms.ts";

const ADMIN_DATES_PATH = "/admin/dates";

/**
 * The Dates screen's parts (app/routes/admin/dates.tsx, decision 0033): where a date happens, the
 * cancel question without JavaScript, and the New date / Edit date form.
 */

/** Where a date happens: the venue and town of a classroom date, else 'Online'. */
export function where(date: AdminCourseDate): string {
  if (date.format === "online") return "Online";
  return [date.venueName, date.venueTown].filter(Boolean).join(", ") || "Classroom";
}

export function cancelDetail(date: AdminCourseDate): ReactNode {
  return (
    <>
      The date of <strong className="text-foreground">‘{date.courseTitle}’</strong> on{" "}
      {formatDateRange(date.startsAt, date.endsAt)} will be taken off the site. It has no bookings.
    </>
  );
}

/** The cancel question without JavaScript (`?cancel=<id>`): the dialog's words, as a form. */
export function CancelPanel({
  date,
  otherDates,
  listHref,
}: {
  date: AdminCourseDate;
  /** The course's other upcoming dates: where the bookings may move (those with room). */
  otherDates: AdminCourseDate[];
  listHref: string;
}) {
  const booked = date.sold + date.held;
  const roomy = otherDates.filter(
    (d) => d.id !== date.id && d.courseId === date.courseId && d.free >= booked,
  );
  return (
    <section
      aria-labelledby="date-cancel-heading"
      aria-describedby="date-cancel-detail"
      className="mb-6 rounded-lg border border-destructive bg-destructive/5 p-4"
    >
      <h2 id="date-cancel-heading" className="text-lg font-semibold">
        Cancel this date?
      </h2>
      <p id="date-cancel-detail" className="mt-1 text-sm">
        {booked > 0 ? (
          <>
            The date of <strong className="text-foreground">‘{date.courseTitle}’</strong> on{" "}
            {formatDateRange(date.startsAt, date.endsAt)} will be taken off the site. It has{" "}
            {booked} {booked === 1 ? "place" : "places"} booked: choose what happens to the
            bookings.
          </>
        ) : (
          cancelDetail(date)
        )}
      </p>
      <Form method="post" className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="id" value={date.id} />
        {booked > 0 ? (
          <fieldset className="grid gap-3 text-sm">
            <legend className="mb-1 font-medium">The bookings</legend>
            <label className="flex items-start gap-2">
              <input
                type="radio"
                name="bookings"
                value="move"
                defaultChecked={roomy.length > 0}
                disabled={roomy.length === 0}
                className="mt-1 size-4 accent-primary"
              />
              <span>
                Move them to another date of this course (each buyer is told by e-mail)
                {roomy.length === 0 ? " — no other date has room for them" : ""}
              </span>
            </label>
            {roomy.length > 0 ? (
              <label className="grid max-w-md gap-1 pl-6">
                <span>Move to</span>
                <select
                  name="to_date_id"
                  defaultValue={roomy[0]!.id}
                  className="h-9 rounded-md border border-input bg-background px-2"
                >
                  {roomy.map((d) => (
                    <option key={d.id} value={d.id}>
                      {formatDateRange(d.startsAt, d.endsAt)}, {where(d)} ({d.free} free)
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <label className="flex items-start gap-2">
              <input
                type="radio"
                name="bookings"
                value="cancel"
                defaultChecked={roomy.length === 0}
                className="mt-1 size-4 accent-primary"
              />
              <span>
                Cancel them: unpaid orders are cancelled and their buyers told, card payments are
                refunded in full; paid invoices are listed for you to refund by bank transfer
              </span>
            </label>
          </fieldset>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="destructive">
            Cancel date
          </Button>
          <Button asChild variant="outline">
            <Link to={listHref}>Keep date</Link>
          </Button>
        </div>
      </Form>
    </section>
  );
}

/**
 * The New date / Edit date form: in a dialog with JavaScript, on the page without it (then a
 * refused post comes back with its messages and what was typed). The schema runs before posting;
 * the server checks everything again.
 */
export function DateForm({
  mode,
  date,
  courses,
  courseId,
  pageAnswer,
  listHref,
  onSaved,
}: {
  mode: "dialog" | "page";
  date: AdminCourseDate | null;
  courses: CourseDateCourseOption[];
  /** The course the screen is filtered to: a new date's default. */
  courseId: string | null;
  pageAnswer?: FormAnswer;
  listHref?: string;
  onSaved?: () => void;
}) {
  const navigate = useNavigate();
  const form = useCatalogueForm({
    schema: courseDateFormSchema,
    onSaved: onSaved ?? (() => listHref && navigate(listHref)),
    extraErrors: unreadableNumbers,
    pageAnswer,
  });
  const { initial } = form;
  const options: CourseDateCourseOption[] =
    date && !courses.some((c) => c.id === date.courseId)
      ? [{ id: date.courseId, title: date.courseTitle, status: "archived" }, ...courses]
      : courses;

  const body = (
    <>
      <SelectField
        form={form}
        name="course_id"
        label="Course"
        required
        defaultValue={initial("course_id", date?.courseId ?? courseId ?? "")}
      >
        <option value="">Choose a course</option>
        {options.map((course) => (
          <option key={course.id} value={course.id}>
            {course.status === "published" ? course.title : `${course.title} (${course.status})`}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={form}
          name="starts_at"
          label="Starts"
          hint="UK time"
          type="datetime-local"
          required
          defaultValue={initial("starts_at", date ? toUkWallTime(date.startsAt) : "")}
        />
        <TextField
          form={form}
          name="ends_at"
          label="Ends"
          hint="UK time"
          type="datetime-local"
          required
          defaultValue={initial("ends_at", date ? toUkWallTime(date.endsAt) : "")}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          form={form}
          name="format"
          label="Format"
          required
          defaultValue={initial("format", date?.format ?? "classroom")}
        >
          {COURSE_DATE_FORMATS.map((format) => (
            <option key={format} value={format}>
              {COURSE_DATE_FORMAT_LABELS[format]}
            </option>
          ))}
        </SelectField>
        <TextField
          form={form}
          name="capacity"
          label="Places"
          type="number"
          inputMode="numeric"
          min={MIN_CAPACITY}
          max={MAX_CAPACITY}
          step={1}
          required
          defaultValue={initial("capacity", date ? String(date.capacity) : "")}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={form}
          name="venue_name"
          label="Venue"
          hint="Classroom dates only"
          maxLength={200}
          defaultValue={initial("venue_name", date?.venueName ?? "")}
        />
        <TextField
          form={form}
          name="venue_town"
          label="Town"
          hint="Shown on the course page"
          maxLength={100}
          defaultValue={initial("venue_town", date?.venueTown ?? "")}
        />
      </div>
      <TextareaField
        form={form}
        name="venue_address"
        label="Venue address"
        hint="Sent to booked people only"
        rows={2}
        defaultValue={initial("venue_address", date?.venueAddress ?? "")}
      />
      <TextareaField
        form={form}
        name="joining_details"
        label="Joining details"
        hint="The link or dial-in of an online date: sent to booked people only, never shown on the site"
        rows={2}
        defaultValue={initial("joining_details", date?.joiningDetails ?? "")}
      />
      <TextareaField
        form={form}
        name="schedule"
        label="Schedule"
        hint="For a date over several days: the times of each day"
        rows={2}
        defaultValue={initial("schedule", date?.schedule ?? "")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={form}
          name="price"
          label="Price per place (£)"
          hint="Empty: the course's price"
          inputMode="decimal"
          defaultValue={initial("price", date?.price ?? "")}
        />
        <TextField
          form={form}
          name="booking_closes_at"
          label="Booking closes"
          hint="UK time. Empty: when the date starts"
          type="datetime-local"
          defaultValue={initial(
            "booking_closes_at",
            date && date.bookingClosesAt !== date.startsAt
              ? toUkWallTime(date.bookingClosesAt)
              : "",
          )}
        />
      </div>
    </>
  );

  return (
    <CatalogueForm
      form={form}
      mode={mode}
      noun="Date"
      item={date}
      title={date ? "Edit Date" : "New Date"}
      description="Times are UK time (GMT or BST, whichever applies on the day)."
      className="sm:max-w-2xl"
      listHref={listHref ?? ADMIN_DATES_PATH}
    >
      {body}
    </CatalogueForm>
  );
}
