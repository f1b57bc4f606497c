import { Form, Link, data, useFetcher } from "react-router";
import type { Route } from "./+types/date-waiting-list";
import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { BackToDates } from "#app/components/admin/dates/back-to-dates.tsx";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { useHydrated } from "#app/components/forms/form-parts.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDateRange, formatUkDateTime } from "#app/lib/catalogue/course-dates.ts";
import {
  WAITING_LIST_STATE_LABELS,
  type AdminWaitingListEntry,
} from "#app/lib/catalogue/waiting-list.ts";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import { orderPageHref } from "#app/lib/orders/orders.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import {
  listDateWaitingList,
  offerEntryNow,
  removeEntry,
} from "#server/catalogue/waiting-list-admin.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { success } from "#server/forms/form-post.server.ts";

/**
 * /admin/dates/:dateId/waiting-list (decision 0034): a date's waiting list in the order people
 * joined, with each entry's state; Offer now (out of turn, when its places are free) and Remove
 * (asked first: a dialog with JavaScript, `?remove=<id>` on the page without). The rules are in
 * server/catalogue/waiting-list-admin.server.ts; every change is audited there.
 */

export const meta: Route.MetaFunction = () => adminMeta("Waiting list");

export async function loader({ params, request }: Route.LoaderArgs) {
  const list = await listDateWaitingList(params.dateId);
  if (!list) throw data("Date not found", { status: 404 });
  const removing = new URL(request.url).searchParams.get("remove");
  return { ...list, removing: list.entries.find((e) => e.id === removing) ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const entryId = (form: FormData) => String(form.get("id") ?? "").trim();
  return adminFormAction(
    request,
    { name: "waiting_list", failureMessage: "Could not change the waiting list" },
    {
      offer: async (form: FormData, refuse) => {
        const result = await offerEntryNow(admin, entryId(form));
        if (!result.ok) return refuse(result.status, result.message);
        return success("offer", "Places offered: the e-mail is on its way");
      },
      remove: async (form: FormData, refuse) => {
        const result = await removeEntry(admin, entryId(form));
        if (!result.ok) return refuse(result.status, result.message);
        return success("remove", "Removed from the waiting list");
      },
    },
  );
}

export const clientAction = keepFormOnFailure;

function who(entry: AdminWaitingListEntry): string {
  return `${entry.firstName} ${entry.lastName}`.trim();
}

export default function DateWaitingList({ loaderData, actionData }: Route.ComponentProps) {
  const { date, entries, removing } = loaderData;
  const hydrated = useHydrated();
  const fetcher = useFetcher<FormAnswer>({ key: "waiting-list" });
  useFormAnswer(fetcher);
  const answer = actionData as FormAnswer | undefined;
  const when = formatDateRange(date.startsAt, date.endsAt);
  const waiting = entries.filter((e) => e.state === "waiting" || e.state === "offered").length;

  const removeButton = (entry: AdminWaitingListEntry) =>
    hydrated ? (
      <ConfirmAction
        trigger={
          <Button type="button" variant="ghost" size="sm" className="text-destructive">
            Remove<span className="sr-only"> {who(entry)}</span>
          </Button>
        }
        question="Remove from the waiting list?"
        detail={`${who(entry)} (${entry.places} ${entry.places === 1 ? "place" : "places"}) will no longer be offered places on this date${entry.state === "offered" ? ", and their open offer ends now" : ""}.`}
        cancelLabel="Keep"
        confirmLabel="Remove"
        destructive
        onConfirm={() => fetcher.submit({ intent: "remove", id: entry.id }, { method: "post" })}
      />
    ) : (
      <Button asChild variant="ghost" size="sm" className="text-destructive">
        <Link to={`?remove=${entry.id}`}>
          Remove<span className="sr-only"> {who(entry)}</span>
        </Link>
      </Button>
    );

  return (
    <div>
      <BackToDates />
      <AdminPageHeader
        title="Waiting list"
        description={`${date.courseTitle}, ${when}: ${waiting} waiting or offered; ${date.free} of ${date.capacity} places free.`}
      />
      {answer?.message ? (
        <p role="status" className="mb-4 rounded-md border border-border p-3 text-sm">
          {answer.message}
        </p>
      ) : null}
      {removing && !(answer?.ok && answer.form === "remove") ? (
        <Form method="post" className="mb-4 grid gap-3 rounded-md border border-destructive/60 p-4">
          <p className="font-semibold">Remove from the waiting list?</p>
          <p className="text-sm">
            {who(removing)} ({removing.places} {removing.places === 1 ? "place" : "places"}) will no
            longer be offered places on this date.
          </p>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="id" value={removing.id} />
          <div className="flex gap-2">
            <Button type="submit" variant="destructive">
              Remove
            </Button>
            <Button asChild variant="outline">
              <Link to=".">Keep</Link>
            </Button>
          </div>
        </Form>
      ) : null}
      {entries.length === 0 ? (
        <p className="text-muted-foreground">Nobody is on this date's waiting list.</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>#</TableHead>
              <TableHead>Name</TableHead>
              <TableHead>E-mail</TableHead>
              <TableHead>Organisation</TableHead>
              <TableHead>Places</TableHead>
              <TableHead>Joined</TableHead>
              <TableHead>State</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.map((entry) => (
              <TableRow key={entry.id} data-testid="waiting-list-entry">
                <TableCell>{entry.position}</TableCell>
                <TableCell>{who(entry)}</TableCell>
                <TableCell>{entry.email}</TableCell>
                <TableCell>{entry.organisation ?? ""}</TableCell>
                <TableCell>{entry.places}</TableCell>
                <TableCell>{formatUkDateTime(entry.joinedAt)}</TableCell>
                <TableCell>
                  {entry.suspected ? "Suspected spam · " : ""}
                  {WAITING_LIST_STATE_LABELS[entry.state] ?? entry.state}
                  {entry.state === "offered" && entry.offerExpiresAt
                    ? ` until ${formatUkDateTime(entry.offerExpiresAt)}`
                    : ""}
                  {entry.orderId ? (
                    <>
                      {" · "}
                      <Link to={orderPageHref(entry.orderId)} className="underline">
                        order
                      </Link>
                    </>
                  ) : null}
                </TableCell>
                <TableCell className="text-right">
                  <div className="flex justify-end gap-1">
                    {entry.state === "waiting" && !entry.suspected ? (
                      <Form
                        method="post"
                        onSubmit={(event) => {
                          if (!hydrated) return;
                          event.preventDefault();
                          fetcher.submit(event.currentTarget, { method: "post" });
                        }}
                      >
                        <input type="hidden" name="intent" value="offer" />
                        <input type="hidden" name="id" value={entry.id} />
                        <Button type="submit" variant="ghost" size="sm">
                          Offer now<span className="sr-only"> to {who(entry)}</span>
                        </Button>
                      </Form>
                    ) : null}
                    {entry.state === "waiting" || entry.state === "offered"
                      ? removeButton(entry)
                      : null}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
