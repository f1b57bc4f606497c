import { seededRandom } from "#tests/support/site-client.ts";
import { SEED, COURSE } from "./settings.ts";

/**
 * Odd values for the fuzz run (seeded by FAULTS_SEED): nasty strings, bad e-mails, random text and
 * bytes, odd slugs, prices, hours, URLs, HTML and images, and the encodings a form is posted in.
 */

export const random = seededRandom(SEED);
export const chance = (p: number) => random() < p;
export const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
export function pick<T>(values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

export const NASTY = [
  "",
  " ",
  "   \t  ",
  "\u0000",
  "a\u0000b",
  "\r\nBcc: victim@example.com",
  "line1\nline2",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "%00%0d%0a",
  "../../etc/passwd",
  "🦊🔥💳",
  "\u202eevil\u202c",
  "e\u0301\u0301\u0301",
  "\ud800",
  "null",
  "undefined",
  "[object Object]",
  "NaN",
  "-1",
  "0",
  "1e309",
  "9".repeat(40),
  "true",
  "{}",
  "[]",
  '{"$ne":null}',
  "\\",
  "%",
  "_",
];
export const BAD_EMAILS = [
  "",
  "plain",
  "@example.com",
  "a@",
  "a@b",
  "a b@example.com",
  "a@@example.com",
  "a@example..com",
  "<a@example.com>",
  "a@example.com\r\nBcc: x@example.com",
  "a@example.com,b@example.com",
  `${"a".repeat(300)}@example.com`,
  "a@[127.0.0.1]",
  "\u0000@example.com",
  "ünïcödé@exämple.com",
];

export function randomText(max: number): string {
  const n = int(0, max);
  let s = "";
  for (let i = 0; i < n; i++) {
    const r = random();
    s +=
      r < 0.6
        ? String.fromCharCode(int(32, 126))
        : r < 0.75
          ? String.fromCharCode(int(0, 31))
          : r < 0.95
            ? String.fromCodePoint(int(0xa0, 0x2fff))
            : String.fromCodePoint(int(0x1f300, 0x1f6ff));
  }
  return s;
}

export function randomBytes(max: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(int(0, max));
  for (let i = 0; i < bytes.length; i++) bytes[i] = int(0, 255);
  return bytes;
}

/** One odd value for a field. */
export function oddValue(): string | string[] | Blob {
  const r = random();
  if (r < 0.25) return pick(NASTY);
  if (r < 0.4) return randomText(80);
  if (r < 0.5) return "x".repeat(pick([201, 255, 5001, 20_000, 70_000, 200_000]));
  if (r < 0.6) return [pick(NASTY), randomText(10)]; // the field twice
  if (r < 0.7) return new Blob([randomBytes(200)]); // a file where text is expected
  if (r < 0.85) return Buffer.from(randomBytes(40)).toString("latin1");
  return pick(BAD_EMAILS);
}

export type Fields = Record<string, string | Blob | (string | Blob)[]>;

/** A valid form, then 1–4 mutations of its fields (drop, oddify, add junk). */
export function mutate(valid: Fields, enumFields: Record<string, readonly string[]> = {}): Fields {
  const fields: Fields = { ...valid };
  const names = Object.keys(fields);
  for (let i = int(1, 4); i > 0; i--) {
    const name = pick(names);
    const r = random();
    if (r < 0.25) delete fields[name];
    else if (r < 0.4 && enumFields[name])
      fields[name] = pick(["", "unknown", "OTHER", "1; drop table", enumFields[name]!.join(",")]);
    else if (r < 0.5 && name.includes("email")) fields[name] = pick(BAD_EMAILS);
    else if (r < 0.9) fields[name] = oddValue();
    else fields[randomText(20) || "x"] = oddValue();
  }
  return fields;
}

export interface Submission {
  target: string;
  method: "POST" | "GET";
  path: string;
  headers: Record<string, string>;
  body?: BodyInit;
  describe: string;
}

export function encode(
  target: string,
  pathName: string,
  fields: Fields,
  extraHeaders: Record<string, string> = {},
): Submission {
  const r = random();
  const summary = JSON.stringify(fields, (_k, v) =>
    v instanceof Blob
      ? "<file>"
      : typeof v === "string" && v.length > 60
        ? `${v.slice(0, 60)}…(${v.length})`
        : v,
  ).slice(0, 400);
  // Sometimes through React Router's data endpoint, as a JavaScript fetcher posts.
  const routePath = chance(0.1) ? dataPath(pathName) : pathName;
  const base = { target, method: "POST" as const, path: routePath, headers: { ...extraHeaders } };
  if (r < 0.65) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) {
      for (const one of Array.isArray(v) ? v : [v])
        params.append(k, one instanceof Blob ? "[blob]" : one);
    }
    return {
      ...base,
      headers: { ...base.headers, "content-type": "application/x-www-form-urlencoded" },
      body: params.toString(),
      describe: `urlencoded ${summary}`,
    };
  }
  if (r < 0.8) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) {
      for (const one of Array.isArray(v) ? v : [v]) {
        if (one instanceof File) form.append(k, one);
        else if (one instanceof Blob) form.append(k, one, "upload.bin");
        else form.append(k, one);
      }
    }
    return { ...base, body: form, describe: `multipart ${summary}` };
  }
  if (r < 0.86) {
    return {
      ...base,
      headers: { ...base.headers, "content-type": "application/json" },
      body: JSON.stringify(fields),
      describe: `json ${summary}`,
    };
  }
  if (r < 0.92) {
    return {
      ...base,
      headers: {
        ...base.headers,
        "content-type": pick([
          "application/x-www-form-urlencoded",
          "multipart/form-data",
          "multipart/form-data; boundary=zzz",
          "text/plain",
          "application/octet-stream",
        ]),
      },
      body: randomBytes(pick([0, 10, 500, 5000, 140_000])),
      describe: "random bytes",
    };
  }
  if (r < 0.96) {
    const boundary = "----fuzz" + int(0, 1e6);
    return {
      ...base,
      headers: {
        ...base.headers,
        "content-type": `multipart/form-data; boundary=${chance(0.5) ? boundary : "other"}`,
      },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nJane\r\n--${boundary}\r\nContent-Disposition: form-data; name="email"${chance(0.5) ? "" : "\r\n--" + boundary}`,
      describe: "broken multipart",
    };
  }
  return { ...base, body: "name=a&email=b", describe: "no content type" };
}

/** Percent-encodes; a lone surrogate becomes the invalid UTF-8 it would be on the wire. */
export function enc(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

export function dataPath(p: string): string {
  const [pathname, query] = p.split("?");
  const data = pathname === "/" ? "/_root.data" : `${pathname}.data`;
  return query ? `${data}?${query}` : data;
}

export const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
export const COURSE_STATUSES = ["draft", "published", "archived"];
export const DELIVERY = ["online", "classroom"];
export const GROUPS = ["", "none", "individual", "group"];
export const ORDER_STATUSES = ["pending", "invoiced", "paid", "failed", "canceled"];
export const INQUIRY_STATUSES = ["new", "in_progress", "replied", "closed"];

export const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
export const GIF_1PX = Buffer.from("R0lGODlhAQABAAAAACwAAAAAAQABAAACAkQBADs=", "base64");

/** A file for an image field: a real image, an image under an odd name, or anything but. */
export function oddImage(): File {
  const r = random();
  const name = () =>
    pick([
      "logo.png",
      "x.html",
      "../../etc/passwd",
      "a\r\nContent-Type: text/html.png",
      "\u0000.png",
      "🦊.gif",
      `${"n".repeat(1000)}.png`,
      "",
      "photo.JPG",
      "noextension",
    ]);
  if (r < 0.3) return new File([PNG_1PX], chance(0.7) ? "logo.png" : name(), { type: "image/png" });
  if (r < 0.4) return new File([GIF_1PX], name(), { type: pick(["image/gif", "", "text/html"]) });
  if (r < 0.45)
    return new File([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(300)], name(), {
      type: "image/jpeg",
    });
  if (r < 0.55)
    return new File(
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      name(),
      {
        type: pick(["image/svg+xml", "image/png", ""]),
      },
    );
  if (r < 0.62)
    return new File(["<html><script>alert(1)</script></html>"], name(), { type: "image/png" });
  if (r < 0.7) return new File([], name(), { type: pick(["", "image/png"]) });
  if (r < 0.72)
    // Just over the 5 MB cap (rarely: each is 5 MB on the wire).
    return new File([PNG_1PX, new Uint8Array(5 * 1024 * 1024)], "big.png", { type: "image/png" });
  if (r < 0.8) return new File([PNG_1PX], name(), { type: "image/svg+xml" });
  // A PNG signature and then junk: the type is read from the first bytes only.
  if (r < 0.88) return new File([PNG_1PX.subarray(0, 8), randomBytes(2000)], name(), { type: "" });
  return new File([randomBytes(3000)], name(), {
    type: pick(["image/png", "application/octet-stream"]),
  });
}

export const ODD_SLUGS = [
  COURSE,
  "UPPER-Case",
  "a--b",
  "-lead",
  "trail-",
  "a b",
  "ünïcödé",
  "a".repeat(121),
  "a_b",
  "a/b",
  "..",
  "%00",
  "a\u0000b",
  "🦊",
  "ok-slug",
];
export const ODD_PRICES = [
  "-1",
  "-0.01",
  "0",
  "12.345",
  "99999999.99",
  "100000000",
  "1e3",
  "0x10",
  "£12",
  " 12.50 ",
  "NaN",
  "Infinity",
  "12,50",
  "١٢",
];
export const ODD_HOURS = ["-1", "0", "1.5", "10000", "10001", "1e3", "9".repeat(20), " 8 "];
export const ODD_URLS = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "http://",
  "//evil.example",
  "/relative",
  "https://ok.example/path?q=1",
  "https://ok.example/\r\nSet-Cookie: x=y",
  "ftp://files.example",
  `https://example.com/${"p".repeat(2100)}`,
];
export const ODD_HTML = [
  "<p>Hello <strong>world</strong></p>",
  "<script>alert(1)</script><p>x</p>",
  '<img src=x onerror="alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="  jav&#x09;ascript:alert(1)">x</a>',
  "<iframe src=//evil.example></iframe>",
  '<svg onload="alert(1)"></svg>',
  "<style>body{display:none}</style>",
  '<p style="background:url(javascript:alert(1))">x</p>',
  "<p>unclosed <em>tags",
  "<!-- comment --><p>x</p>",
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
];

export function idFrom(pool: readonly string[]): string {
  const r = random();
  if (r < 0.75 && pool.length) return pick(pool);
  if (r < 0.85) return crypto.randomUUID();
  return pick([
    "",
    "not-a-uuid",
    "00000000-0000-0000-0000-000000000000",
    "1",
    "-1",
    " ",
    "%00",
    `${crypto.randomUUID()}x`,
  ]);
}
