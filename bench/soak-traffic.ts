import { type Agent } from "node:http";
import { sendRequest } from "#tests/support/http-request.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { DEMO_COURSE_SLUG } from "./lib.ts";

/**
 * The soak bench's traffic: the requests a visitor makes (pages, cookies, data loads, missing
 * pages, form posts), chosen in turn over the public pages of the sitemap.
 */

export type Kind = "page" | "cookie" | "data" | "missing" | "post";

export interface Step {
  kind: Kind;
  method: "GET" | "POST";
  path: string;
  /** Statuses that count as a correct answer. */
  expect: readonly number[];
  headers?: Record<string, string>;
  body?: Record<string, string>;
}

export const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en-GB,en;q=0.9",
  "user-agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
};

/** One request; resolves with its status once the whole answer has been read. */
export async function send(
  agent: Agent,
  base: string,
  step: Step,
  visitor: string,
): Promise<number> {
  const { status } = await sendRequest(agent, base, {
    method: step.method,
    path: step.path,
    headers: {
      ...BROWSER_HEADERS,
      "x-forwarded-for": visitor,
      ...step.headers,
      ...(step.body ? { origin: base } : {}),
    },
    form: step.body,
  });
  return status;
}

/** The public pages from the sitemap (the demo content: fixed pages and every course). */
export async function publicPaths(base: string): Promise<{ pages: string[]; courses: string[] }> {
  const xml = await (await fetch(`${base}/sitemap.xml`)).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const courses = paths.filter((p) => p.startsWith("/courses/"));
  if (!courses.length) throw new Error("the sitemap lists no course");
  return { pages: paths.filter((p) => !p.startsWith("/courses/")), courses };
}

/**
 * The i-th request of a connection: a cycle of 20 — 16 GETs of every sort and 4 form posts —
 * each visiting a different page of the site in turn. Unique names (e-mail addresses, missing
 * pages, campaign parameters) come from `n`, so nothing repeats across the run.
 */
export function stepFor(i: number, n: number, site: { pages: string[]; courses: string[] }): Step {
  const at = <T>(list: readonly T[]) => list[Math.floor(i / 20) % list.length]!;
  const page = (p: string): Step => ({ kind: "page", method: "GET", path: p, expect: [200] });
  const withCookie = (p: string): Step => ({
    ...page(p),
    kind: "cookie",
    // Any cookie makes the visitor's page a render of its own (no page cache).
    headers: { cookie: `nw_seen=${n}` },
  });
  const data = (p: string): Step => ({
    kind: "data",
    method: "GET",
    path: p === "/" ? "/_root.data" : `${p}.data`,
    expect: [200],
    headers: { accept: "*/*" },
  });
  const missing = (p: string): Step => ({ kind: "missing", method: "GET", path: p, expect: [404] });
  const post = (p: string, body: Record<string, string>): Step => ({
    kind: "post",
    method: "POST",
    path: p,
    // Answered in the page (200) or redirected (303); 429 would mean the rate limit was hit.
    expect: [200, 303],
    body,
  });
  const id = `${Date.now().toString(36)}-${n}`;
  const course = at(site.courses);
  switch (i % 20) {
    case 0:
      return page("/");
    case 1:
      return page("/services/counter-fraud-training");
    case 2:
      return page(course);
    case 3:
      return page("/contact");
    case 4:
      return post("/contact", {
        form: "enquiry",
        contact_website: "",
        name: "Soak Test",
        email: `soak-${id}@example.com`,
        message: "An enquiry sent by the soak benchmark.",
      });
    case 5:
      return page(at(site.pages));
    case 6:
      return withCookie(at([...site.pages, ...site.courses]));
    case 7:
      return data(at([...site.pages, ...site.courses]));
    case 8:
      return missing(`/no-such-page-${n}`);
    case 9:
      // Campaign links: the page cache serves them the plain page's copy (tags are ignored).
      return page(`${at(["/", "/services/counter-fraud-training", course])}?utm_campaign=${n}`);
    case 10:
      return post("/newsletter", { contact_website: "", email: `news-${id}@example.com` });
    case 11:
      return page(`/courses/${DEMO_COURSE_SLUG}/checkout`);
    case 12:
      return post(`/courses/${DEMO_COURSE_SLUG}/checkout`, {
        intent: "invoice",
        firstName: "Soak",
        lastName: "Test",
        email: `order-${id}@example.com`,
        ...BILLING_FORM,
        studentMode: "self",
      });
    case 13:
      return page(i % 40 < 20 ? "/sitemap.xml" : "/robots.txt");
    case 14:
      return missing(`/courses/no-such-course-${n}`);
    case 15:
      return withCookie(course);
    case 16:
      return page("/newsletter");
    case 17:
      return data(course);
    case 18:
      // A bot filling the honeypot: answered like anyone else, stored marked as suspected spam.
      return post("/contact", {
        form: "enquiry",
        contact_website: "https://spam.example",
        name: "Bot",
        email: `bot-${id}@example.com`,
        message: "Spam sent by the soak benchmark.",
      });
    default:
      return page("/services/counter-fraud-training");
  }
}
