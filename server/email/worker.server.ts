import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { config } from "../config.server.ts";
import { db, type Database } from "../db/client.server.ts";
import { certificatePdf } from "../catalogue/certificates.server.ts";
import { documentPdf } from "../invoices/document-files.server.ts";
import { quotePdf } from "../quotes/quote-files.server.ts";
import { diskLow } from "../disk-space.server.ts";
import { log } from "../log.server.ts";
import { jobSucceeded } from "../metrics.server.ts";
import {
  claimDueEmails,
  markAttemptFailed,
  markSent,
  releaseClaims,
  renewClaim,
  type OutboxRow,
} from "./outbox.server.ts";

/**
 * The outbox worker: runs inside each server process, polls the outbox (and is nudged right
 * after an inquiry commits), sends due messages with nodemailer, retries with exponential
 * backoff and keeps each row's delivery state. A visitor's request never waits for it.
 */

/** A file sent with a message: an invoice, receipt or credit note as a PDF, or an invite.ics. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface Mailer {
  /** Delivers one message; throws if it was not accepted. Returns where it went (for the log). */
  send(row: OutboxRow, attachments?: MailAttachment[]): Promise<string>;
  close(): void;
}

function senderDomain(from: string): string {
  const match = /@([^>\s]+)>?\s*$/.exec(from);
  return match?.[1] ?? "localhost";
}

/** Stored headers as nodemailer takes them; a name or value with a line break is dropped. */
function oneLineHeaders(headers: Record<string, string> | null): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (/^[!-9;-~]+$/.test(name) && typeof value === "string" && !/[\r\n]/.test(value))
      safe[name] = value;
  }
  return safe;
}

function envelope(row: OutboxRow, from: string, attachments: MailAttachment[] = []) {
  return {
    from,
    to: row.toAddress,
    replyTo: row.replyTo ?? undefined,
    subject: row.subject,
    html: row.html,
    text: row.text,
    // Stable per row, so a receiving system can recognise a (rare) repeat after a crash.
    messageId: `<${row.id}@${senderDomain(from)}>`,
    date: row.createdAt,
    // The row's own headers (e.g. List-Unsubscribe) never replace the kind header.
    headers: { ...oneLineHeaders(row.headers), "X-NightWatch-Kind": row.kind },
    attachments: attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
    })),
  };
}

/**
 * What a claimed message carries: its document (documentId) drawn as a PDF now, from the
 * snapshot stored when it was issued, its certificate's stored PDF (certificateId), a sent quote
 * drawn from its snapshot (quoteId), and its calendar invitation (decision 0033) as invite.ics,
 * typed with the METHOD its text names (REQUEST or CANCEL) so mail clients offer to add, update
 * or remove the event. A document that cannot be read or drawn fails the attempt like a refused
 * delivery, so the message is retried, never sent without it.
 */
export async function attachmentsOf(database: Database, row: OutboxRow): Promise<MailAttachment[]> {
  const attachments: MailAttachment[] = [];
  if (row.documentId) {
    const file = await documentPdf(row.documentId, { database });
    if (!file) throw new Error(`document ${row.documentId} to attach was not found`);
    attachments.push({
      filename: file.filename,
      content: file.pdf,
      contentType: "application/pdf",
    });
  }
  if (row.certificateId) {
    // The file as issued and hashed, never drawn again (decision 0036).
    const file = await certificatePdf(row.certificateId, database);
    if (!file) throw new Error(`certificate ${row.certificateId} to attach was not found`);
    attachments.push({
      filename: file.filename,
      content: file.pdf,
      contentType: "application/pdf",
    });
  }
  if (row.quoteId) {
    const file = await quotePdf(row.quoteId, database);
    if (!file) throw new Error(`quote ${row.quoteId} to attach was not found`);
    attachments.push({
      filename: file.filename,
      content: file.pdf,
      contentType: "application/pdf",
    });
  }
  if (row.calendar) attachments.push(calendarAttachment(row.calendar));
  return attachments;
}

/** An iCalendar text as invite.ics, its content type naming the text's own METHOD. */
export function calendarAttachment(calendar: string): MailAttachment {
  const method = /^METHOD:([A-Z-]+)\r?$/m.exec(calendar)?.[1] ?? "PUBLISH";
  return {
    filename: "invite.ics",
    content: Buffer.from(calendar, "utf8"),
    contentType: `text/calendar; charset=utf-8; method=${method}`,
  };
}

/** Sends over SMTP (SMTP_URL). */
export function smtpMailer(url: string, from: string = config.mailFrom): Mailer {
  const transport = nodemailer.createTransport({
    url,
    // Bounded well under the claim lease, so a hung server never lets a row be taken twice.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } satisfies SMTPTransport.Options);
  return {
    async send(row, attachments) {
      const info = await transport.sendMail(envelope(row, from, attachments));
      return `smtp ${String(info.response ?? "").slice(0, 200)}`;
    },
    close: () => transport.close(),
  };
}

/** Without SMTP: writes each message as an .eml file a developer can open. */
export function fileMailer(dir: string, from: string = config.mailFrom): Mailer {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });
  return {
    async send(row, attachments) {
      const info = await transport.sendMail(envelope(row, from, attachments));
      // Copies hold personal data: the server's user only (decision 0021).
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const stamp = row.createdAt.toISOString().replace(/[:.]/g, "-");
      const file = path.join(dir, `${stamp}-${row.kind}-${row.id}.eml`);
      // Written whole then renamed, so a reader never sees half a message.
      await writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      return file;
    },
    close: () => transport.close(),
  };
}

/** SMTP when SMTP_URL is set, else .eml files under DATA_DIR/outbox. */
export function configuredMailer(): Mailer {
  return config.smtpUrl
    ? smtpMailer(config.smtpUrl)
    : fileMailer(path.join(config.dataDir, "outbox"));
}

export interface OutboxWorkerOptions {
  mailer: Mailer;
  /** How often to look for due messages when not nudged. */
  pollMs?: number;
  batchSize?: number;
  /** How long a claim holds a row before another worker may take it over. */
  leaseMs?: number;
  /** First retry delay; doubled after every failed attempt, up to retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** After this many failed attempts a message is marked failed (kept, with its last error). */
  maxAttempts?: number;
  database?: () => Database;
}

/** Delay before attempt `attempts + 1`, with ±20 % jitter so instances don't retry in step. */
export function retryDelayMs(
  attempts: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

export class OutboxWorker {
  readonly mailer: Mailer;
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxAttempts: number;
  private readonly database: () => Database;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private stopRequested = false;

  constructor(options: OutboxWorkerOptions) {
    this.mailer = options.mailer;
    this.pollMs = options.pollMs ?? 5_000;
    this.batchSize = options.batchSize ?? 10;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.retryBaseMs = options.retryBaseMs ?? 15_000;
    this.retryMaxMs = options.retryMaxMs ?? 3_600_000;
    this.maxAttempts = options.maxAttempts ?? 20;
    this.database = options.database ?? db;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopRequested = false;
    this.schedule(0);
  }

  /** Look now (e.g. right after an inquiry committed) instead of at the next poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Stops polling and waits for the messages being sent to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRequested = true;
    clearTimeout(this.timer);
    await this.running;
    this.mailer.close();
  }

  /** One batch: claim due messages and try each once. Returns how many were claimed. */
  async runOnce(): Promise<number> {
    // Claiming and marking are writes: none while the disk is nearly full (the next poll retries).
    if (diskLow()) return 0;
    const database = this.database();
    const rows = await claimDueEmails(database, {
      limit: this.batchSize,
      leaseMs: this.leaseMs,
    });
    for (const [index, row] of rows.entries()) {
      if (this.stopRequested) {
        // Shutting down: hand the rest back now rather than after their lease.
        await releaseClaims(
          database,
          rows.slice(index).map((r) => r.id),
        ).catch((error: unknown) => log.warn({ err: error }, "could not release e-mail claims"));
        break;
      }
      // The lease covers this message from now: waiting behind earlier ones in a slow batch
      // must not let it lapse and be sent twice.
      const ours = await renewClaim(database, row, this.leaseMs).catch((error: unknown) => {
        log.warn({ err: error, emailId: row.id }, "could not renew an e-mail claim");
        return false;
      });
      if (!ours) {
        log.warn({ emailId: row.id }, "e-mail claim lapsed and was taken over: not sent here");
        continue;
      }
      try {
        const where = await this.mailer.send(row, await attachmentsOf(database, row));
        await markSent(database, row.id);
        log.info({ emailId: row.id, kind: row.kind, where }, "e-mail sent");
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
        const giveUp = row.attempts >= this.maxAttempts;
        const retryAt = giveUp
          ? null
          : new Date(Date.now() + retryDelayMs(row.attempts, this.retryBaseMs, this.retryMaxMs));
        log[giveUp ? "error" : "warn"](
          { emailId: row.id, kind: row.kind, attempts: row.attempts, retryAt, err: message },
          giveUp ? "e-mail failed for good" : "e-mail not sent, will retry",
        );
        await markAttemptFailed(database, row.id, message, retryAt).catch((markError: unknown) =>
          log.error({ err: markError, emailId: row.id }, "could not record the failed attempt"),
        );
      }
    }
    jobSucceeded("outbox");
    return rows.length;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    // Never the reason the process stays alive.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.runOnce()) > 0) {
            // Keep going while there is work.
          }
        } while (this.again && !this.stopped);
      } catch (error) {
        log.error({ err: error }, "outbox worker could not read the outbox");
      }
    })();
    await this.running;
    this.running = undefined;
    if (!this.stopped) this.schedule(this.pollMs);
  }
}

let current: OutboxWorker | undefined;

/** Starts this process's worker (server start-up). */
export function startOutboxWorker(options: Partial<OutboxWorkerOptions> = {}): OutboxWorker {
  if (current) return current;
  const mailer = options.mailer ?? configuredMailer();
  current = new OutboxWorker({ ...options, mailer });
  current.start();
  log.info(
    {
      delivery: config.smtpUrl ? "smtp" : `files in ${path.join(config.dataDir, "outbox")}`,
    },
    "outbox worker started",
  );
  return current;
}

export async function stopOutboxWorker(): Promise<void> {
  const worker = current;
  current = undefined;
  await worker?.stop();
}

/** Tells the running worker (if any) that new messages are waiting. */
export function nudgeOutbox(): void {
  current?.nudge();
}
