import { Award } from "lucide-react";
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { formatDate } from "#app/lib/admin/time.ts";
import { certificatePath } from "#app/lib/catalogue/certificates.ts";
import type { RegisterPlace } from "#app/lib/catalogue/register.ts";

/**
 * The register's certificates (decision 0036), once the date has ended: one button issues every
 * certificate owed (students marked present, named, with an e-mail, without a valid one), each
 * owed place can be issued alone, and each issued certificate links to its public page and can be
 * revoked with a reason. Plain forms outside the attendance form (forms cannot nest), so each
 * works without JavaScript; revoking opens a disclosure that asks for the reason first.
 */
export function RegisterCertificates({ places, busy }: { places: RegisterPlace[]; busy: boolean }) {
  const owed = places.filter(
    (p) => p.attendance === "present" && p.name && p.email && !validCertificate(p),
  );
  const issued = places.filter((p) => p.certificate);
  return (
    <section aria-labelledby="certificates-heading" className="mt-8 grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="certificates-heading" className="text-lg font-semibold">
            Certificates
          </h2>
          <p className="text-sm text-muted-foreground">
            For students marked present, with a name and an e-mail. Each is e-mailed to its student
            as a PDF that anyone can check on its public page.
          </p>
        </div>
        {owed.length > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="certificates" />
            <Button type="submit" disabled={busy} className="min-h-11">
              <Award aria-hidden />
              {owed.length === 1 ? "Issue 1 certificate" : `Issue ${owed.length} certificates`}
            </Button>
          </Form>
        ) : null}
      </div>
      {owed.length > 0 ? (
        <ul className="grid gap-2" aria-label="Certificates to issue">
          {owed.map((p) => (
            <li
              key={`${p.orderId}:${p.position}`}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border p-3"
            >
              <span>
                {p.name}{" "}
                <span className="text-sm text-muted-foreground">
                  · {p.certificate?.revokedAt ? "previous certificate revoked" : "not issued yet"}
                </span>
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="certificate" />
                <input type="hidden" name="orderId" value={p.orderId} />
                <input type="hidden" name="position" value={p.position} />
                <Button type="submit" variant="outline" size="sm" disabled={busy}>
                  Issue certificate<span className="sr-only"> to {p.name}</span>
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      {issued.length > 0 ? (
        <ul className="grid gap-2" aria-label="Issued certificates">
          {issued.map((p) => (
            <IssuedCertificate key={p.certificate!.id} place={p} busy={busy} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No certificates issued yet.</p>
      )}
    </section>
  );
}

function validCertificate(place: RegisterPlace): boolean {
  return place.certificate !== null && place.certificate.revokedAt === null;
}

function IssuedCertificate({ place, busy }: { place: RegisterPlace; busy: boolean }) {
  const certificate = place.certificate!;
  return (
    <li
      data-testid="issued-certificate"
      className="grid gap-2 rounded-md border border-border p-3 md:grid-cols-[1fr_auto] md:items-start"
    >
      <div className="min-w-0">
        <p className="font-medium">
          <a
            href={certificatePath(certificate.number)}
            target="_blank"
            rel="noreferrer"
            className="underline"
          >
            {certificate.number}
          </a>{" "}
          <span className="font-normal text-muted-foreground">· {place.name}</span>
        </p>
        <p className="text-sm text-muted-foreground">
          Issued {formatDate(certificate.issuedAt)}
          {certificate.revokedAt ? ` · Revoked ${formatDate(certificate.revokedAt)}` : " · Valid"}
        </p>
      </div>
      {certificate.revokedAt ? null : (
        <details className="group">
          <summary className="inline-flex min-h-9 cursor-pointer items-center rounded-md border border-border px-3 text-sm">
            Revoke<span className="sr-only"> certificate {certificate.number}</span>
          </summary>
          <Form method="post" className="mt-2 grid gap-2 md:w-80">
            <input type="hidden" name="intent" value="revoke" />
            <input type="hidden" name="certificateId" value={certificate.id} />
            <label className="grid gap-1 text-sm">
              Why is it revoked?
              <textarea
                name="reason"
                required
                maxLength={300}
                rows={2}
                className="rounded-md border border-input bg-background p-2"
              />
            </label>
            <Button type="submit" variant="destructive" size="sm" disabled={busy}>
              Revoke certificate {certificate.number}
            </Button>
          </Form>
        </details>
      )}
    </li>
  );
}
