import { connect, createServer, type Socket } from "node:net";
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

export interface DroppingRelay {
  port: number;
  url: string;
  /** Connections cut in the middle of a message's DATA. */
  dropped: number;
  close(): Promise<void>;
}

/**
 * An SMTP relay in front of `sink` that cuts the connection in the middle of a message's DATA
 * (after its first bytes, before the final dot) whenever `drop()` says so, speaking SMTP itself
 * up to there; other connections are passed through to the sink untouched. A message cut that
 * way was never accepted: the sender must send it again, once.
 */
export async function startDroppingRelay(
  sink: SmtpSink,
  drop: () => boolean,
): Promise<DroppingRelay> {
  const sockets = new Set<Socket>();
  const relay: DroppingRelay = { port: 0, url: "", dropped: 0, close: async () => {} };
  const server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    if (!drop()) {
      const upstream = connect(sink.port, "127.0.0.1");
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.on("error", () => client.destroy());
      client.pipe(upstream).pipe(client);
      return;
    }
    let inData = false;
    let buffered = "";
    client.write("220 relay.test ESMTP\r\n");
    client.on("data", (chunk: Buffer) => {
      if (inData) {
        // Part of the message has arrived: the line goes dead before the final dot.
        relay.dropped++;
        client.destroy();
        return;
      }
      buffered += chunk.toString("latin1");
      let end;
      while ((end = buffered.indexOf("\r\n")) >= 0) {
        const line = buffered.slice(0, end).toUpperCase();
        buffered = buffered.slice(end + 2);
        if (line.startsWith("EHLO")) client.write("250-relay.test\r\n250 8BITMIME\r\n");
        else if (line.startsWith("HELO")) client.write("250 relay.test\r\n");
        else if (line.startsWith("QUIT")) client.end("221 bye\r\n");
        else if (line === "DATA") {
          client.write("354 go ahead\r\n");
          inData = true;
          if (buffered.length > 0) {
            relay.dropped++;
            client.destroy();
          }
          return;
        } else client.write("250 OK\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  relay.port = typeof address === "object" && address ? address.port : 0;
  relay.url = `smtp://127.0.0.1:${relay.port}`;
  relay.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return relay;
}

/** Waits until `check` is true (polling), or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}
