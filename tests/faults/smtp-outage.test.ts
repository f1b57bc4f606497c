import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { post, withSiteDatabase } from "#tests/support/site-client.ts";
import { sleep, startSite, type Site } from "#tests/support/site-process.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink.ts";

/**
 * The mail server is down while 100 enquiries arrive: every enquiry is still accepted, its two
 * e-mails wait in the outbox, and once a real SMTP server listens again on that address all 200
 * are delivered — each exactly once (distinct Message-IDs, one alert and one confirmation per
 * enquiry, nothing more after a quiet period).
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4552;
const SMTP_PORT = 4553;
const ENQUIRIES = 100;
const ALERTS_TO = "alerts@example.com";

describe("SMTP outage during 100 enquiries", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-faults-smtp-"));
  let site: Site | undefined;
  let sink: SmtpSink | undefined;

  afterAll(async () => {
    await site?.kill9();
    await sink?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("delivers all 200 e-mails exactly once after the mail server returns", async () => {
    site = await startSite({
      port: PORT,
      buildDir,
      dataDir,
      env: {
        // Nothing listens here yet: every attempt fails with ECONNREFUSED.
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        ADMIN_EMAILS: ALERTS_TO,
        FORM_RATE_LIMIT_PER_MINUTE: "100000",
        LOG_LEVEL: "warn",
      },
    });
    const markers = Array.from({ length: ENQUIRIES }, (_, i) => `smtp-outage-${i}@example.com`);
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        while (next < markers.length) {
          const email = markers[next++]!;
          const answer = await post(`${site!.url}/contact`, {
            form: "enquiry",
            contact_website: "",
            name: "Outage Test",
            email,
            message: `Enquiry while the mail server is down (${email})`,
          });
          statuses.push(answer.status);
        }
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    // Every message has failed at least once (the worker logs each failed attempt).
    const failedIds = () => {
      const ids = new Set<string>();
      for (const line of site!.output().split("\n")) {
        if (!line.includes("e-mail not sent, will retry")) continue;
        try {
          ids.add((JSON.parse(line) as { emailId: string }).emailId);
        } catch {
          // not a JSON log line
        }
      }
      return ids;
    };
    const outageStarted = Date.now();
    while (failedIds().size < ENQUIRIES * 2 && Date.now() - outageStarted < 60_000)
      await sleep(200);
    expect(failedIds().size, "messages that failed during the outage").toBe(ENQUIRIES * 2);

    // The mail server comes back on the same address.
    sink = await startSmtpSink({ port: SMTP_PORT });
    const backAt = Date.now();
    while (sink.messages.length < ENQUIRIES * 2 && Date.now() - backAt < 90_000) await sleep(200);
    const deliveredAfterMs = Date.now() - backAt;
    // A quiet period: a duplicate would show up here.
    await sleep(6_000);
    console.log(
      `[smtp outage] ${failedIds().size} messages failed while down; ${sink.messages.length} delivered ` +
        `${Math.round(deliveredAfterMs / 1000)} s after the server came back`,
    );

    const messages = sink.messages;
    expect(messages.length).toBe(ENQUIRIES * 2);
    const messageIds = messages.map((m) => m.parsed.messageId);
    expect(new Set(messageIds).size).toBe(ENQUIRIES * 2);
    for (const email of markers) {
      const confirmations = messages.filter((m) => m.envelopeTo.includes(email));
      const alerts = messages.filter(
        (m) =>
          m.envelopeTo.includes(ALERTS_TO) &&
          m.parsed.replyTo?.value.some((a) => a.address === email),
      );
      expect(confirmations.length, `confirmations to ${email}`).toBe(1);
      expect(alerts.length, `alerts about ${email}`).toBe(1);
    }

    // The outbox agrees: 200 rows, all sent, each after at least one failed attempt.
    expect(await site.stop()).toBe(0);
    site = undefined;
    const rows = await withSiteDatabase({ kind: "pglite", dataDir }, (query) =>
      query<{ status: string; attempts: number; id: string }>(
        "select id, status, attempts from email_outbox",
      ),
    );
    expect(rows.length).toBe(ENQUIRIES * 2);
    expect(rows.filter((r) => r.status !== "sent")).toEqual([]);
    expect(rows.filter((r) => r.attempts < 2)).toEqual([]);
    // Message-IDs are the outbox row ids: every row delivered, none twice.
    const ids = new Set(rows.map((r) => r.id));
    expect(messageIds.filter((m) => !ids.has(/^<([^@]+)@/.exec(m ?? "")?.[1] ?? ""))).toEqual([]);
  });
});
