import { Link } from "react-router";
import { formatDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { LICENCE_EXPIRING_DAYS, type LicencesEnding } from "#app/lib/licences/licences.ts";

/**
 * The Dashboard's File Interrogator licences ending within 60 days and not yet renewed, with what
 * a year of them is worth (decision 0050). Shown only when there is one.
 */
export function LicencesEndingAlert({ ending }: { ending: LicencesEnding }) {
  return (
    <section
      aria-labelledby="licences-ending-heading"
      className="mb-6 rounded-lg border border-info bg-info/5 p-4"
    >
      <h2 id="licences-ending-heading" className="font-semibold">
        Licences ending within {LICENCE_EXPIRING_DAYS} days: {ending.count}, worth{" "}
        {formatPence(ending.annualNetCents)} a year
      </h2>
      <ul className="mt-2 grid gap-1 text-sm" aria-label="Licences ending soon">
        {ending.items.map((l) => (
          <li key={l.id}>
            <span className="font-mono">{l.reference}</span> {l.organisation}, {l.seats}{" "}
            {l.seats === 1 ? "seat" : "seats"}, ends {formatDate(l.endsOn)}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">
        <Link
          to="/admin/licences?state=expiring"
          className="text-primary underline-offset-4 hover:underline"
        >
          Renew them on the licence register
        </Link>
      </p>
    </section>
  );
}
