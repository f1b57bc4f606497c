import { createServer } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

/** A real SMTP server on loopback that keeps what it receives (for e-mail tests). */

export interface ReceivedMail {
  envelopeTo: string[];
  envelopeFrom: string;
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  port: number;
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

/** A loopback port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startSmtpSink(
  options: { port?: number; reject?: () => Error | null } = {},
): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const serverOptions: SMTPServerOptions = {
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // No DNS here: a reverse lookup of 127.0.0.1 would only add seconds.
    disableReverseLookup: true,
    onRcptTo(_address, _session, callback) {
      const error = options.reject?.() ?? null;
      if (error) callback(error);
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          envelopeTo: (session.envelope.rcptTo ?? []).map((r) => r.address),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          raw,
          parsed: await simpleParser(raw),
        });
        callback();
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  const port = options.port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `check` is true (polling), or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}
