import path from "node:path";
import routeConfig from "#app/routes.ts";
import * as adminLayout from "#app/routes/admin/layout.tsx";
import { requestContext } from "#server/react-router-handler.server.ts";

/**
 * Calling a route's loader or action in a test as React Router calls it: through the middleware
 * of the routes around it in app/routes.ts (for admin routes, the admin layout's guard — decision
 * 0026), with a fresh RouterContextProvider as `context`.
 */

interface ConfigEntry {
  file: string;
  children?: ConfigEntry[];
}

// React Router's server middleware, loosely typed: a test hands it plain arguments.
export type Middleware = (args: HandlerArgs, next: () => Promise<unknown>) => unknown;
type Handler = (args: never) => unknown;
type LooseArgs = Parameters<typeof runThroughMiddleware>[1];
/** A loader or action as a test calls it: plain arguments, the handler's own answer. */
type Behind<F> = F extends (...args: never[]) => infer R ? (args: LooseArgs) => R : F;

interface HandlerArgs {
  request: Request;
  params: Record<string, string | undefined>;
  context: ReturnType<typeof requestContext>;
}

const appDirectory = path.resolve(import.meta.dirname, "../../app");

/** The files of the routes around `file` in app/routes.ts, outermost first; null if it is not there. */
export function ancestorsOf(
  file: string,
  entries: readonly ConfigEntry[] = routeConfig as unknown as ConfigEntry[],
): string[] | null {
  for (const entry of entries) {
    if (entry.file === file) return [];
    const below = ancestorsOf(file, entry.children ?? []);
    if (below) return [entry.file, ...below];
  }
  return null;
}

/**
 * The middleware React Router runs before `file`'s own: that of the routes around it in
 * app/routes.ts, outermost first (none for a file that is not in the table).
 */
export async function middlewareAround(file: string): Promise<Middleware[]> {
  const chain: Middleware[] = [];
  for (const each of ancestorsOf(file) ?? []) {
    const module = (await import(/* @vite-ignore */ path.join(appDirectory, each))) as {
      middleware?: Middleware[];
    };
    chain.push(...(module.middleware ?? []));
  }
  return chain;
}

/**
 * Runs `handler` behind `chain` as React Router does: each middleware in order, `next()` calling
 * the rest (called for it when a middleware returns without calling it); a throw anywhere is the
 * outcome (React Router answers it as if the loader had thrown it).
 */
export async function runThroughMiddleware(
  chain: readonly Middleware[],
  args: { request: Request; params?: Record<string, string | undefined>; context?: unknown },
  handler: Handler,
): Promise<unknown> {
  const clientIp = (args.context as { clientIp?: string } | undefined)?.clientIp;
  const full: HandlerArgs = {
    request: args.request,
    params: args.params ?? {},
    context: requestContext(clientIp),
  };
  const dispatch = async (index: number): Promise<unknown> => {
    if (index === chain.length) return handler(full as never);
    let called = false;
    let result: unknown;
    const next = async () => {
      if (called) throw new Error("next() called twice");
      called = true;
      result = await dispatch(index + 1);
      return result;
    };
    const returned = await chain[index]!(full, next);
    if (returned !== undefined) return returned;
    return called ? result : next();
  };
  return dispatch(0);
}

/**
 * A route module under the admin layout whose loader and action run behind the layout's
 * middleware, as in the app: the admin comes from the guard, not from the test.
 */
export function throughAdminLayout<M extends { loader?: Handler; action?: Handler }>(
  module: M,
): Omit<M, "loader" | "action"> & { loader: Behind<M["loader"]>; action: Behind<M["action"]> } {
  const chain = adminLayout.middleware as unknown as Middleware[];
  const wrap = (handler: Handler | undefined) =>
    handler && ((args: LooseArgs) => runThroughMiddleware(chain, args, handler));
  return { ...module, loader: wrap(module.loader), action: wrap(module.action) } as never;
}
