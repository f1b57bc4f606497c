import { Download, FileText } from "lucide-react";
import { Form, data, useNavigation } from "react-router";
import type { Route } from "./+types/date-register";
import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { BackToDates } from "#app/components/admin/dates/back-to-dates.tsx";
import { RegisterCertificates } from "#app/components/admin/dates/register-certificates.tsx";
import { RegisterPlaces } from "#app/components/admin/dates/register-places.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { datePlace, formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import {
  ATTENDANCE,
  ATTENDANCE_LABELS,
  REGISTER_MESSAGES,
  parseAttendance,
  registerCsvPath,
  signInSheetPath,
} from "#app/lib/catalogue/register.ts";
import {
  CERTIFICATE_MESSAGES,
  issueCertificateSchema,
  revokeCertificateSchema,
} from "#app/lib/catalogue/certificates.ts";
import { parseForm, type FormAnswer } from "#app/lib/forms.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { issueCertificates, revokeCertificate } from "#server/catalogue/certificates.server.ts";
import { dateRegister, markAttendance } from "#server/catalogue/date-register.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { success } from "#server/forms/form-post.server.ts";

/**
 * /admin/dates/:dateId/register (decision 0035): who holds each booked place of a date, their
 * organisation, order and payment; attendance marked on the day (present, absent, partial) in
 * one form that works on a tablet and without JavaScript; the register as CSV and as a printable
 * sign-in sheet; once the date has ended, certificates of attendance issued and revoked (decision
 * 0036). The rules are in server/catalogue/date-register.server.ts and certificates.server.ts.
 */

export const meta: Route.MetaFunction = () => adminMeta("Register");

export async function loader({ params }: Route.LoaderArgs) {
  const register = await dateRegister(params.dateId);
  if (!register) throw data("Date not found", { status: 404 });
  return register;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "register", failureMessage: REGISTER_MESSAGES.failed },
    {
      attendance: async (form: FormData, refuse) => {
        const parsed = parseAttendance(form);
        if (!parsed.ok) return refuse(400, parsed.message);
        const result = await markAttendance(admin, params.dateId, parsed.marks);
        if (!result.ok) return refuse(result.status, result.message);
        const counts = ATTENDANCE.map((a) => `${result.counts[a]} ${ATTENDANCE_LABELS[a]}`);
        return success("attendance", `${REGISTER_MESSAGES.saved}: ${counts.join(", ")}`);
      },
      certificates: async (_form: FormData, refuse) => {
        const result = await issueCertificates(admin, params.dateId);
        if (!result.ok) return refuse(result.status, result.message);
        return success("certificates", CERTIFICATE_MESSAGES.issued(result.issued.length));
      },
      certificate: async (form: FormData, refuse) => {
        const parsed = parseForm(form, issueCertificateSchema);
        if (!parsed.ok) return refuse(400, CERTIFICATE_MESSAGES.notPresent);
        const result = await issueCertificates(admin, params.dateId, { place: parsed.value });
        if (!result.ok) return refuse(result.status, result.message);
        return success("certificate", CERTIFICATE_MESSAGES.issued(result.issued.length));
      },
      revoke: async (form: FormData, refuse) => {
        const parsed = parseForm(form, revokeCertificateSchema);
        if (!parsed.ok) return refuse(400, CERTIFICATE_MESSAGES.reasonNeeded);
        const { certificateId, reason } = parsed.value;
        const result = await revokeCertificate(admin, params.dateId, certificateId, reason);
        if (!result.ok) return refuse(result.status, result.message);
        return success("revoke", CERTIFICATE_MESSAGES.revoked(result.number));
      },
    },
  );
}

export default function DateRegisterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { date, places, markable, ended } = loaderData;
  const answer = actionData as FormAnswer | undefined;
  const saving = useNavigation().state === "submitting";
  const where = datePlace({ format: date.format, town: date.venueTown, venueName: date.venueName });
  const marked = places.filter((p) => p.attendance !== null).length;

  return (
    <div>
      <BackToDates />
      <AdminPageHeader
        title="Register"
        description={`${date.courseTitle}, ${formatDateRange(date.startsAt, date.endsAt)}, ${where}: ${places.length} of ${date.capacity} places booked, ${marked} marked.`}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <a href={registerCsvPath(date.id)} download>
                <Download aria-hidden /> Download CSV
              </a>
            </Button>
            <Button asChild variant="outline" size="sm">
              <a href={signInSheetPath(date.id)} download>
                <FileText aria-hidden /> Sign-in sheet (PDF)
              </a>
            </Button>
          </div>
        }
      />
      {answer?.message ? (
        <p
          role={answer.ok ? "status" : "alert"}
          className={`mb-4 rounded-md border p-3 text-sm ${answer.ok ? "border-border" : "border-destructive text-destructive"}`}
        >
          {answer.message}
        </p>
      ) : null}
      {!markable ? (
        <p className="mb-4 rounded-md border border-border bg-muted/40 p-3 text-sm">
          {date.state === "cancelled" ? REGISTER_MESSAGES.cancelled : REGISTER_MESSAGES.notYet}
        </p>
      ) : null}
      {places.length === 0 ? (
        <p className="text-muted-foreground">No places are booked on this date.</p>
      ) : (
        <Form method="post" aria-label="Attendance">
          <input type="hidden" name="intent" value="attendance" />
          <RegisterPlaces places={places} disabled={!markable || saving} />
          {markable ? (
            <div className="sticky bottom-0 mt-4 flex items-center gap-3 border-t border-border bg-background py-3">
              <Button type="submit" disabled={saving} className="min-h-11">
                {saving ? "Saving..." : "Save attendance"}
              </Button>
              <span className="text-sm text-muted-foreground">
                Only the places marked are saved; a mark can be changed later.
              </span>
            </div>
          ) : null}
        </Form>
      )}
      {ended && places.length > 0 ? <RegisterCertificates places={places} busy={saving} /> : null}
    </div>
  );
}
