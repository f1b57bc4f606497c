import type { ActionFunctionArgs } from "react-router";
import { HONEYPOT_FIELD, type FormResult } from "#app/lib/inquiries/schemas.ts";

/** Posting to the form actions as a browser would, and reading their answers. */

let nextIp = 1;
/** A fresh client address, so rate limits don't interfere between posts that aren't about them. */
export function freshIp(): string {
  const n = nextIp++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export function formRequest(
  fields: Record<string, string | string[]> | URLSearchParams | FormData | string,
  init: {
    path?: string;
    contentType?: string;
    method?: string;
    headers?: Record<string, string>;
  } = {},
): Request {
  let body: BodyInit;
  const headers: Record<string, string> = { ...init.headers };
  if (fields instanceof FormData) {
    body = fields;
  } else if (typeof fields === "string") {
    body = fields;
    headers["content-type"] = init.contentType ?? "application/x-www-form-urlencoded";
  } else {
    const params = fields instanceof URLSearchParams ? fields : new URLSearchParams();
    if (!(fields instanceof URLSearchParams)) {
      for (const [k, v] of Object.entries(fields)) {
        for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
      }
    }
    body = params.toString();
    headers["content-type"] = init.contentType ?? "application/x-www-form-urlencoded";
  }
  return new Request(`http://localhost${init.path ?? "/contact"}`, {
    method: init.method ?? "POST",
    body: init.method === "GET" ? undefined : body,
    headers,
  });
}

/** Adds the hidden fields a real page would send. */
export function withGuards(fields: Record<string, string>): Record<string, string> {
  return { [HONEYPOT_FIELD]: "", ...fields };
}

type Action = (args: ActionFunctionArgs) => Promise<unknown>;

export async function callAction(
  action: Action,
  request: Request,
  ip: string = freshIp(),
): Promise<{ status: number; body: FormResult; headers: Headers }> {
  const result = (await action({
    request,
    params: {},
    context: { clientIp: ip },
  } as unknown as ActionFunctionArgs)) as {
    data: FormResult;
    init?: ResponseInit | null;
  };
  return {
    status: result.init?.status ?? 200,
    body: result.data,
    headers: new Headers(result.init?.headers ?? {}),
  };
}
