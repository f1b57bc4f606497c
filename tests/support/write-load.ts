import { BILLING_FORM } from "./checkout.ts";
import { post, withSiteDatabase, type Answer, type DatabaseRef } from "./site-client.ts";
import { sleep, type Site } from "./site-process.ts";

/**
 * Visitors writing to a running site, for the fault tests that break something under them (a
 * crash, a database restart): loops post enquiries and invoice orders, each with a unique e-mail
 * address, and note every one the server acknowledged (enquiry: the 200 success page; order: a
 * 303 to the success page). `checkAcknowledged` then finds them in the database.
 */

const COURSE = "introduction-to-counter-fraud";

export interface Acks {
  inquiries: string[];
  orders: string[];
  /** Requests that got no answer at all (the connection was cut). */
  failedInFlight: number;
  /** Answers that acknowledged nothing, by status. */
  refused: Record<string, number>;
  /** 5xx answers without a Retry-After header. */
  withoutRetryAfter: number;
  /** When each acknowledgement arrived (ms since the epoch), in order. */
  ackedAt: number[];
}

export function emptyAcks(): Acks {
  return {
    inquiries: [],
    orders: [],
    failedInFlight: 0,
    refused: {},
    withoutRetryAfter: 0,
    ackedAt: [],
  };
}

/** Adds `more` into `all`. */
export function addAcks(all: Acks, more: Acks): void {
  all.inquiries.push(...more.inquiries);
  all.orders.push(...more.orders);
  all.ackedAt.push(...more.ackedAt);
  all.failedInFlight += more.failedInFlight;
  all.withoutRetryAfter += more.withoutRetryAfter;
  for (const [status, count] of Object.entries(more.refused)) {
    all.refused[status] = (all.refused[status] ?? 0) + count;
  }
}

/**
 * Posts until `stop.now` is set: `enquiryLoops` loops of enquiries and one of invoice orders,
 * noting in `acks` what the server acknowledged. The site needs `FORM_RATE_LIMIT_PER_MINUTE`
 * raised and `TRUST_PROXY=loopback` (each order comes from its own forwarded address).
 */
export async function writeLoad(
  site: Site,
  label: string,
  stop: { now: boolean },
  acks: Acks,
  enquiryLoops = 6,
): Promise<void> {
  let n = 0;
  /**
   * Posts one write after another until `stop.now`: `send` posts the write for `email`,
   * `acknowledged` says whether its answer acknowledged it, and then `email` joins `into`.
   */
  const loop = async (
    kind: "e" | "o",
    into: string[],
    send: (email: string) => Promise<Answer>,
    acknowledged: (answer: Answer) => boolean,
  ) => {
    while (!stop.now) {
      const email = `${label}-${kind}${n++}@example.com`;
      try {
        const answer = await send(email);
        if (acknowledged(answer)) {
          into.push(email);
          acks.ackedAt.push(Date.now());
          continue;
        }
        acks.refused[answer.status] = (acks.refused[answer.status] ?? 0) + 1;
        if (answer.status >= 500 && !answer.retryAfter) acks.withoutRetryAfter++;
      } catch {
        if (stop.now) return;
        acks.failedInFlight++;
        await sleep(20);
      }
    }
  };
  const enquiryLoop = () =>
    loop(
      "e",
      acks.inquiries,
      (email) =>
        post(`${site.url}/contact`, {
          form: "enquiry",
          contact_website: "",
          name: "Fault Test",
          email,
          message: `Acknowledged enquiry ${email}`,
        }),
      (answer) => answer.status === 200,
    );
  const orderLoop = () =>
    loop(
      "o",
      acks.orders,
      (email) =>
        post(
          `${site.url}/courses/${COURSE}/checkout`,
          {
            intent: "invoice",
            firstName: "Fault",
            lastName: "Test",
            email,
            ...BILLING_FORM,
            studentMode: "self",
            quantity: "1",
          },
          // Each order from its own address: the checkout allows 20 a minute per client.
          { headers: { "x-forwarded-for": `10.9.${(n >> 8) & 255}.${n & 255}` } },
        ),
      (answer) => answer.status === 303 && Boolean(answer.location?.includes("/success")),
    );
  await Promise.all([...Array.from({ length: enquiryLoops }, enquiryLoop), orderLoop()]);
}

export interface Found {
  inquiries: { email: string; id: string; emails: number }[];
  orders: { email: string; total: number; unit: number; quantity: number; emails: number }[];
  lostInquiries: string[];
  lostOrders: string[];
}

/** Finds the acknowledged inquiries and orders (with their queued e-mails) in the database. */
export async function checkAcknowledged(ref: DatabaseRef, acks: Acks): Promise<Found> {
  const found = await withSiteDatabase(ref, async (query) => {
    const inquiries = await query<Found["inquiries"][number]>(
      `select i.email, i.id, (select count(*)::int from email_outbox o where o.inquiry_id = i.id) as emails
       from inquiries i where i.email = any($1::text[])`,
      [acks.inquiries],
    );
    const orders = await query<Found["orders"][number]>(
      `select o.buyer_email as email, o.total_amount_cents as total, o.unit_price_cents as unit, o.quantity,
              (select count(*)::int from email_outbox e where e.order_id = o.id) as emails
       from orders o where o.buyer_email = any($1::text[])`,
      [acks.orders],
    );
    return { inquiries, orders };
  });
  const inquiryEmails = new Set(found.inquiries.map((r) => r.email));
  const orderEmails = new Set(found.orders.map((r) => r.email));
  return {
    ...found,
    lostInquiries: acks.inquiries.filter((e) => !inquiryEmails.has(e)),
    lostOrders: acks.orders.filter((e) => !orderEmails.has(e)),
  };
}
