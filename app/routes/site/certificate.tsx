import { data, isRouteErrorResponse, redirect, useParams, useRouteError } from "react-router";
import { CertificateFileCheck } from "#app/components/site/certificate-file-check.tsx";
import { formatDate } from "#app/lib/admin/time.ts";
import {
  CERTIFICATE_NUMBER,
  certificatePath,
  cpdHoursText,
  normaliseCertificateNumber,
} from "#app/lib/catalogue/certificates.ts";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { certificateView } from "#server/catalogue/certificates.server.ts";
import type { Route } from "./+types/certificate";

/**
 * /certificates/:number, public (decision 0036): what a certificate of attendance says, whether
 * it is valid or was revoked, and the SHA-256 of the PDF issued, with a box that checks a file
 * against it in the browser. A number typed with confusable letters (o for 0, l for 1, lower
 * case) is sent to its written form. Never cached: a revocation shows at once.
 */

export async function loader({ params }: Route.LoaderArgs) {
  const number = normaliseCertificateNumber(params.number);
  if (!CERTIFICATE_NUMBER.test(number)) throw data(null, { status: 404 });
  if (number !== params.number) throw redirect(certificatePath(number), 301);
  const certificate = await certificateView(number);
  if (!certificate) throw data(null, { status: 404 });
  return { certificate };
}

export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
});

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: `Certificate ${args.params.number}`,
    description: "Check a NightWatch certificate of attendance.",
    noindex: true,
  });

export default function CertificatePage({ loaderData }: Route.ComponentProps) {
  const { certificate: c } = loaderData;
  const hours = cpdHoursText(c.cpdHours);
  const rows: [string, string][] = [
    ["Holder", c.holderName ?? "Erased at the holder's request"],
    ["Course", c.courseTitle],
    ["Dates", formatDateRange(c.startsAt, c.endsAt)],
    ...(hours ? [["CPD", hours] as [string, string]] : []),
    ["Issued", formatDate(c.issuedAt)],
    [
      "Issued by",
      [
        c.issuer.name,
        c.issuer.address,
        c.issuer.companyNumber && `Company number ${c.issuer.companyNumber}`,
      ]
        .filter(Boolean)
        .join(", "),
    ],
  ];
  return (
    <section className="mx-auto grid max-w-2xl gap-6 px-4 py-16">
      <div>
        <p className="text-sm text-muted-foreground">Certificate of attendance</p>
        <h1 className="text-3xl font-bold break-words">{c.number}</h1>
      </div>
      {c.status === "valid" ? (
        <p
          data-testid="certificate-status"
          className="rounded-lg border border-success/60 bg-success/10 p-4 font-medium"
        >
          Valid: this certificate was issued by {c.issuer.name} and has not been revoked.
        </p>
      ) : (
        <p
          data-testid="certificate-status"
          className="rounded-lg border border-destructive/60 bg-destructive/10 p-4 font-medium"
        >
          Revoked on {formatDate(c.revokedAt!)}
          {c.erased ? ", and its holder's details erased at their request" : ""}: this certificate
          is no longer valid.
        </p>
      )}
      <dl className="grid gap-3 sm:grid-cols-[10rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-muted-foreground">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      {c.sha256 ? (
        <div className="grid gap-3">
          <h2 className="text-lg font-semibold">Is a file the one issued?</h2>
          <p className="text-sm">The PDF issued as this certificate has the SHA-256 fingerprint:</p>
          <p data-testid="certificate-sha256" className="font-mono text-sm break-all">
            {c.sha256}
          </p>
          <CertificateFileCheck expected={c.sha256} number={c.number} />
          <noscript>
            <p className="text-sm text-muted-foreground">
              Checking a file here needs JavaScript. You can compare its fingerprint yourself:
              `shasum -a 256 file.pdf` on macOS or Linux, `certutil -hashfile file.pdf SHA256` on
              Windows.
            </p>
          </noscript>
        </div>
      ) : null}
    </section>
  );
}

/** An unknown number: said plainly, inside the site's frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { number } = useParams();
  if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
  return (
    <section className="mx-auto grid max-w-xl gap-4 px-4 py-20">
      <title>Certificate not found | NightWatch</title>
      <h1 className="text-2xl font-bold">No certificate has this number</h1>
      <p className="break-words">
        We issued no certificate numbered {number}. Check the number printed at the bottom of the
        certificate (NWC- and three groups of four letters and digits), or contact us.
      </p>
    </section>
  );
}
