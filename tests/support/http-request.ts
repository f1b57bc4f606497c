import { request, type Agent } from "node:http";

/**
 * One request over a shared keep-alive agent, as the load tests (the soak benchmark, the
 * mixed-traffic fault test) send them: a urlencoded form body when given, the answer read to the
 * end and dropped. Resolves with the status, the time to the end of the answer and the page
 * cache's verdict (X-Page-Cache); rejects on a
 * socket error or when no answer has come within `timeoutMs`.
 */
export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** Sent urlencoded, with its content type and length. */
  form?: Record<string, string>;
}

export function sendRequest(
  agent: Agent,
  base: string,
  step: LoadRequest,
  timeoutMs = 60_000,
): Promise<{ status: number; ms: number; pageCache?: string }> {
  const body = step.form ? new URLSearchParams(step.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      `${base}${step.path}`,
      {
        method: step.method,
        agent,
        timeout: timeoutMs,
        headers: {
          ...step.headers,
          ...(body
            ? {
                "content-type": "application/x-www-form-urlencoded",
                "content-length": Buffer.byteLength(body),
              }
            : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            pageCache: res.headers["x-page-cache"] as string | undefined,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () =>
      req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
    );
    req.on("error", reject);
    req.end(body);
  });
}
