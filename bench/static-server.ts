import { readFileSync } from "node:fs";
import { createServer } from "node:http";

/**
 * The upper bound of the SSR benchmark: a plain Node `http` server answering each page with the
 * exact HTML bytes the site rendered (and headers of about the same size), from memory.
 * Usage: node --import tsx bench/static-server.ts <pages.json> <port>
 */

interface Snapshot {
  pages: Record<string, { headers: Record<string, string>; body: string }>;
}

const [file, portText] = process.argv.slice(2);
if (!file || !portText) {
  console.error("usage: static-server.ts <pages.json> <port>");
  process.exit(2);
}
const snapshot = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
const pages = new Map(
  Object.entries(snapshot.pages).map(([path, page]) => {
    const body = Buffer.from(page.body, "base64");
    return [path, { body, headers: { ...page.headers, "content-length": String(body.length) } }];
  }),
);

const server = createServer((req, res) => {
  const page = pages.get(req.url ?? "");
  if (!page) {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    return;
  }
  res.writeHead(200, page.headers).end(page.body);
});
server.keepAliveTimeout = 5000;
server.listen(Number(portText), "127.0.0.1", () => console.log("static server ready"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
