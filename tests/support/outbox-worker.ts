import { afterEach } from "vitest";
import { OutboxWorker, smtpMailer, stopOutboxWorker } from "#server/email/worker.server.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink.ts";

/**
 * E-mail delivery in server tests: outbox workers sending to a real SMTP server on loopback.
 * Everything started through `useOutbox()` — its workers, the site's own worker, its SMTP
 * sinks — is stopped after each test.
 */
export function useOutbox() {
  const workers: OutboxWorker[] = [];
  const sinks: SmtpSink[] = [];
  afterEach(async () => {
    await stopOutboxWorker();
    for (const w of workers.splice(0)) await w.stop();
    for (const s of sinks.splice(0)) await s.close();
  });
  return {
    /** A worker sending through the SMTP server at `url`, polling every 50 ms. */
    worker(url: string, extra: Partial<ConstructorParameters<typeof OutboxWorker>[0]> = {}) {
      const w = new OutboxWorker({ mailer: smtpMailer(url), pollMs: 50, ...extra });
      workers.push(w);
      return w;
    },
    /** An SMTP server on loopback that keeps what it receives. */
    async smtpSink(options?: Parameters<typeof startSmtpSink>[0]) {
      const sink = await startSmtpSink(options);
      sinks.push(sink);
      return sink;
    },
  };
}

/** Runs a worker's passes until nothing is due. */
export async function drain(w: OutboxWorker) {
  while ((await w.runOnce()) > 0) {
    // until nothing is due
  }
}
