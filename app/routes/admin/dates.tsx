import { CalendarX } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/dates";
import {
  AddButton,
  AdminPageHeader,
  BackToDashboard,
  Pagination,
} from "#app/components/admin/admin-ui.tsx";
import { CatalogueCard } from "#app/components/admin/catalogue/catalogue-page.tsx";
import {
  DestructiveAction,
  EditAction,
  EditDialog,
  PageFormSection,
  PageNotice,
  pageAnswerState,
  useEditDialog,
  useRowAction,
} from "#app/components/admin/page-or-dialog.tsx";
import { useHydrated } from "#app/components/forms/form-parts.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import {
  COURSE_DATE_FORMAT_LABELS,
  courseDateFormSchema,
  type AdminCourseDate,
} from "#app/lib/catalogue/course-date-form.ts";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { registerPath } from "#app/lib/catalogue/register.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatPence } from "#app/lib/format.ts";
import { keepFormOnFailure, parseForm, type FieldErrors, type FormAnswer } from "#app/lib/forms.ts";
import {
  CancelPanel,
  cancelDetail,
  DateForm,
  where,
} from "#app/components/admin/dates/course-date-parts.tsx";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import {
  cancelCourseDate,
  createCourseDate,
  updateCourseDate,
} from "#server/catalogue/course-date-admin.server.ts";
import {
  findAdminDate,
  listAdminDatePage,
  listAdminDates,
  listDateCourseOptions,
} from "#server/catalogue/course-date-list.server.ts";
import { isUuid } from "#server/db/sql.server.ts";
import { waitingCounts } from "#server/catalogue/waiting-list.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { failure, success } from "#server/forms/form-post.server.ts";

/**
 * /admin/dates (decision 0033): the scheduled dates of every course still to start, or of one
 * (`?course=<id>`), with places sold, held and free and revenue; New date, Edit and Cancel. The
 * rules are in server/catalogue/course-date-admin.server.ts. With JavaScript the forms open in
 * dialogs; without it, `?new`, `?edit=<id>` and `?cancel=<id>` show them on the page, and each
 * post answers on the page.
 */

const DATES_PATH = "/admin/dates";
const SAVE_FAILED = "Failed to save date";

export const meta: Route.MetaFunction = () => adminMeta("Dates");

export async function loader({ request }: Route.LoaderArgs) {
  const asked = new URL(request.url).searchParams;
  const course = asked.get("course");
  const courseId = course && isUuid(course) ? course : null;
  const past = asked.get("when") === "past";
  const [list, courses] = await Promise.all([
    listAdminDatePage({ courseId, page: Number(asked.get("page") ?? 1), past }),
    listDateCourseOptions(),
  ]);
  const { dates } = list;
  const waiting = Object.fromEntries(await waitingCounts(dates.map((d) => d.id)));
  /** A scheduled date named in the URL (listed or not: one already started may still be fixed). */
  const named = async (id: string | null) => {
    if (!id) return null;
    const date = dates.find((d) => d.id === id) ?? (await findAdminDate(id));
    return date?.state === "scheduled" ? date : null;
  };
  const cancelling = await named(asked.get("cancel"));
  return {
    dates,
    waiting,
    total: list.total,
    page: list.page,
    pageCount: list.pageCount,
    courses,
    courseId,
    past,
    courseTitle: courses.find((c) => c.id === courseId)?.title ?? dates[0]?.courseTitle ?? null,
    adding: asked.has("new"),
    editing: await named(asked.get("edit")),
    cancelling,
    // Where a cancelled date's bookings may move: the course's other dates, on any page.
    otherDates: cancelling
      ? await listAdminDates({ upcoming: true, courseId: cancelling.courseId })
      : [],
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const postedId = (form: FormData) => String(form.get("id") ?? "").trim();
  return adminFormAction(
    request,
    { name: "course_date", failureMessage: SAVE_FAILED },
    {
      save: async (form: FormData) => {
        const id = postedId(form);
        const refused = (status: number, message: string, fieldErrors?: FieldErrors) =>
          failure(status, { form: "save", formData: form, names: "all", fieldErrors, message });
        const parsed = parseForm(form, courseDateFormSchema);
        if (!parsed.ok) return refused(400, SAVE_FAILED, parsed.fieldErrors);
        const result = id
          ? await updateCourseDate(admin, id, parsed.value)
          : await createCourseDate(admin, parsed.value);
        if (!result.ok) {
          const message = result.status === 400 ? SAVE_FAILED : result.message;
          return refused(result.status, message, result.fieldErrors);
        }
        return success("save", id ? "Date updated successfully" : "Date created successfully");
      },
      cancel: async (form: FormData, refuse) => {
        const bookings = form.get("bookings");
        const choice =
          bookings === "move"
            ? { kind: "move" as const, toDateId: String(form.get("to_date_id") ?? "") }
            : bookings === "cancel"
              ? { kind: "cancel" as const }
              : null;
        const result = await cancelCourseDate(admin, postedId(form), choice);
        if (!result.ok) return refuse(result.status, result.message);
        return success("cancel", cancellationMessage(result.moved, result.bookings));
      },
    },
  );
}

export const clientAction = keepFormOnFailure;

/** What the admin is told once a date is cancelled, with what became of its bookings. */
function cancellationMessage(
  moved: number,
  bookings: {
    cancelled: number;
    refunded: number;
    toRefundByHand: string[];
    failed: string[];
  } | null,
): string {
  const parts = ["Date cancelled"];
  if (moved) parts.push(`${moved} ${moved === 1 ? "booking" : "bookings"} moved`);
  if (bookings) {
    if (bookings.cancelled) parts.push(`${bookings.cancelled} cancelled`);
    if (bookings.refunded) parts.push(`${bookings.refunded} refunded by card`);
    if (bookings.toRefundByHand.length) {
      parts.push(`refund by bank transfer: ${bookings.toRefundByHand.join(", ")}`);
    }
    if (bookings.failed.length) {
      parts.push(`not done, see each order: ${bookings.failed.join(", ")}`);
    }
  }
  return parts.join("; ");
}

export default function AdminDates({ loaderData, actionData }: Route.ComponentProps) {
  const { dates, courses, courseId, courseTitle, past } = loaderData;
  const hydrated = useHydrated();
  const answer = actionData as FormAnswer | undefined;
  const listHref = courseId ? `${DATES_PATH}?course=${courseId}` : DATES_PATH;
  const hrefWith = (name: string, value = "") => {
    const params = new URLSearchParams(courseId ? { course: courseId } : {});
    if (past) params.set("when", "past");
    params.set(name, value);
    return `${DATES_PATH}?${params.toString().replace(/=$/, "")}`;
  };

  const dialog = useEditDialog<AdminCourseDate>();
  const canceller = useRowAction("course-date-cancel");
  const { pageForm, pageNotice, destroyed } = pageAnswerState(answer, loaderData, "cancel");

  const actions = (date: AdminCourseDate) => {
    const label = `${date.courseTitle}, ${formatDateRange(date.startsAt, date.endsAt)}`;
    return (
      <div className="flex justify-end gap-1">
        <Button asChild variant="ghost" size="sm">
          <Link to={registerPath(date.id)} aria-label={`Register for ${label}`}>
            Register
          </Link>
        </Button>
        {past ? null : (
          <>
            <Button asChild variant="ghost" size="sm">
              <Link
                to={`${DATES_PATH}/${date.id}/waiting-list`}
                aria-label={`Waiting list for ${label}`}
              >
                Waiting list ({loaderData.waiting[date.id] ?? 0})
              </Link>
            </Button>
            <EditAction
              hydrated={hydrated}
              label={label}
              onEdit={() => dialog.open(date)}
              href={hrefWith("edit", date.id)}
            />
            {/* A date with bookings asks what happens to them: on its own page, with or without
            JavaScript. */}
            <DestructiveAction
              icon={<CalendarX aria-hidden />}
              label={`Cancel ${label}`}
              title="Cancel date"
              href={hrefWith("cancel", date.id)}
              confirm={
                hydrated && date.sold + date.held === 0
                  ? {
                      question: "Cancel this date?",
                      detail: cancelDetail(date),
                      cancelLabel: "Keep date",
                      confirmLabel: "Cancel date",
                      busy: canceller.busy(date.id),
                      onConfirm: () => canceller.submit("cancel", date.id),
                    }
                  : null
              }
            />
          </>
        )}
      </div>
    );
  };

  return (
    <div>
      <BackToDashboard />
      <AdminPageHeader
        title="Dates"
        description="Scheduled dates of every course: places sold, held at checkout and free, and what they brought in. Times are UK time."
        actions={
          <AddButton
            label="New date"
            hydrated={hydrated}
            onAdd={() => dialog.open(null)}
            href={hrefWith("new")}
          />
        }
      />

      <PageNotice notice={pageNotice} listHref={listHref} />

      {loaderData.cancelling && !destroyed ? (
        <CancelPanel
          date={loaderData.cancelling}
          otherDates={loaderData.otherDates}
          listHref={listHref}
        />
      ) : null}

      {pageForm ? (
        <PageFormSection id="date-form" title={pageForm.item ? "Edit date" : "New date"}>
          <DateForm
            key={pageForm.item?.id ?? "new"}
            mode="page"
            date={pageForm.item}
            courses={courses}
            courseId={courseId}
            pageAnswer={pageForm.answer}
            listHref={listHref}
          />
        </PageFormSection>
      ) : null}

      {courseId ? (
        <p className="mb-4 text-sm">
          Showing the dates of <strong>{courseTitle ?? "one course"}</strong>.{" "}
          <Link to={DATES_PATH} className="text-primary underline">
            Show every course
          </Link>
        </p>
      ) : null}

      <section aria-labelledby="dates-heading" className="rounded-lg border border-border bg-card">
        <div className="flex flex-wrap items-center justify-between gap-2 p-4">
          <h2 id="dates-heading" className="text-lg font-semibold">
            {past ? "Past dates" : "Upcoming dates"} ({loaderData.total.toLocaleString("en-GB")})
          </h2>
          <nav aria-label="Which dates" className="flex gap-1 text-sm">
            {(
              [
                ["Upcoming", false],
                ["Past", true],
              ] as const
            ).map(([label, isPast]) => {
              const params = new URLSearchParams(courseId ? { course: courseId } : {});
              if (isPast) params.set("when", "past");
              const query = params.toString();
              return (
                <Link
                  key={label}
                  to={query ? `${DATES_PATH}?${query}` : DATES_PATH}
                  aria-current={past === isPast ? "page" : undefined}
                  className="rounded-md border border-border px-3 py-1.5 aria-[current=page]:border-primary aria-[current=page]:bg-primary/10"
                >
                  {label}
                </Link>
              );
            })}
          </nav>
        </div>
        {dates.length === 0 ? (
          <p className="px-4 pb-6 text-sm text-muted-foreground">
            {past
              ? "No dates have started yet."
              : "No upcoming dates. Add a date with New date to open a course for booking."}
          </p>
        ) : (
          <>
            {/* Below 768 px: one card per date, the same actions (no sideways scrolling). */}
            <ul className="divide-y divide-border border-t border-border md:hidden">
              {dates.map((date) => (
                <li key={date.id} className="grid gap-3 p-4">
                  <CatalogueCard
                    title={date.courseTitle}
                    facts={[
                      ["When", formatDateRange(date.startsAt, date.endsAt)],
                      ["Where", where(date)],
                      ["Capacity", String(date.capacity)],
                      ["Sold", String(date.sold)],
                      ["Held", String(date.held)],
                      ["Free", String(date.free)],
                      ["Revenue", formatPence(date.revenueCents)],
                    ]}
                  />
                  {actions(date)}
                </li>
              ))}
            </ul>
            <Table wrapperClassName="hidden md:block">
              <TableHeader>
                <TableRow>
                  <TableHead>Course</TableHead>
                  <TableHead>When (UK time)</TableHead>
                  <TableHead>Format</TableHead>
                  <TableHead>Venue</TableHead>
                  <TableHead className="text-right">Capacity</TableHead>
                  <TableHead className="text-right">Sold</TableHead>
                  <TableHead className="text-right">Held</TableHead>
                  <TableHead className="text-right">Free</TableHead>
                  <TableHead className="text-right">Revenue</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {dates.map((date) => (
                  <TableRow key={date.id} data-course-date-id={date.id}>
                    <TableCell className="font-medium">{date.courseTitle}</TableCell>
                    <TableCell>{formatDateRange(date.startsAt, date.endsAt)}</TableCell>
                    <TableCell>{COURSE_DATE_FORMAT_LABELS[date.format]}</TableCell>
                    <TableCell>{where(date)}</TableCell>
                    <TableCell className="text-right tabular-nums">{date.capacity}</TableCell>
                    <TableCell className="text-right tabular-nums">{date.sold}</TableCell>
                    <TableCell className="text-right tabular-nums">{date.held}</TableCell>
                    <TableCell className="text-right tabular-nums">{date.free}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatPence(date.revenueCents)}
                    </TableCell>
                    <TableCell>{actions(date)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </section>
      <Pagination
        page={loaderData.page}
        pageCount={loaderData.pageCount}
        total={loaderData.total}
        noun={["upcoming date", "upcoming dates"]}
        hrefFor={(page) => hrefWith("page", String(page))}
      />

      <EditDialog dialog={dialog}>
        {(date, close) => (
          <DateForm
            mode="dialog"
            date={date}
            courses={courses}
            courseId={courseId}
            onSaved={close}
          />
        )}
      </EditDialog>
    </div>
  );
}
