import { afterEach, describe, expect, it } from "vitest";
import { config } from "#server/config.server.ts";
import { queueEmails } from "#server/email/outbox.server.ts";
import {
  jobSucceeded,
  metricsEndpoint,
  observeRequest,
  routeLabel,
} from "#server/metrics.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * /metrics (server/metrics.server.ts): Prometheus text for a bearer of METRICS_TOKEN only, with
 * requests by route pattern and status, page cache states, the e-mail backlog and the jobs' last
 * success.
 */
const database = useFreshDatabase();
const original = config.metricsToken;
afterEach(() => {
  config.metricsToken = original;
});

/** Calls the endpoint as Express would; resolves with the status, headers and body. */
async function scrape(authorization?: string) {
  const headers = new Map<string, string>();
  let status = 200;
  let body = "";
  await new Promise<void>((resolve) => {
    const res = {
      setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
      status(code: number) {
        status = code;
        return res;
      },
      end(text?: string) {
        body = text ?? "";
        resolve();
      },
    };
    void metricsEndpoint()(
      { headers: authorization ? { authorization } : {} } as never,
      res as never,
      () => {},
    );
  });
  return { status, headers, body };
}

describe("/metrics", () => {
  it("is no page without METRICS_TOKEN, and 401 without the right bearer", async () => {
    config.metricsToken = undefined;
    expect((await scrape("Bearer anything")).status).toBe(404);
    config.metricsToken = "metrics-token-0123456789";
    expect((await scrape()).status).toBe(401);
    expect((await scrape("Bearer metrics-token-012345678X")).status).toBe(401);
  });

  it("counts requests by route pattern and status, the page cache, the outbox and jobs", async () => {
    config.metricsToken = "metrics-token-0123456789";
    observeRequest({
      method: "GET",
      path: "/courses/kyc-essentials",
      status: 200,
      ms: 12,
      cache: "hit",
    });
    observeRequest({
      method: "GET",
      path: "/courses/other-course",
      status: 200,
      ms: 30,
      cache: "miss",
    });
    observeRequest({ method: "GET", path: "/no/such/page/at/all", status: 404, ms: 3 });
    await queueEmails(database().db, [
      { kind: "test", to: "a@example.com", subject: "s", html: "h", text: "t" },
    ]);
    jobSucceeded("retention");

    const { status, headers, body } = await scrape("Bearer metrics-token-0123456789");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^text\/plain/);
    expect(body).toMatch(
      /nightwatch_http_requests_total\{method="GET",route="\/courses\/:slug",status="200"\} 2/,
    );
    expect(body).toMatch(/route="\(not found\)",status="404"\} 1/);
    expect(body).toMatch(/nightwatch_http_request_duration_seconds_bucket\{le="0.025"/);
    expect(body).toMatch(/nightwatch_page_cache_total\{state="hit"\} 1/);
    expect(body).toMatch(/nightwatch_email_outbox_messages\{status="pending"\} 1/);
    expect(body).toMatch(/nightwatch_email_outbox_oldest_pending_age_seconds \d/);
    expect(body).toMatch(/nightwatch_job_last_success_timestamp_seconds\{job="retention"\} \d/);
    // Node's own: the event loop's delay among them.
    expect(body).toMatch(/nodejs_eventloop_lag_seconds/);
  });

  it("keeps route labels few: slugs, ids and files become placeholders", () => {
    expect(routeLabel("/", 200)).toBe("/");
    expect(routeLabel("/courses/x/checkout", 200)).toBe("/courses/:slug/checkout");
    expect(routeLabel("/admin/payments/0b5f0b6e-1c3a-4b8e-9a7e-2f1d3c4b5a69", 200)).toBe(
      "/admin/payments/:id",
    );
    expect(routeLabel("/assets/entry-abc.js", 200)).toBe("/assets/:file");
    expect(routeLabel("/anything/typed", 404)).toBe("(not found)");
  });
});
