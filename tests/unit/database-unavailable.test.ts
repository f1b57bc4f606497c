import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "#server/db/errors.server.ts";

/** What counts as a database that could not answer (a 503) rather than a bug (a 500). */

const pgError = (code: string, message = "error") => Object.assign(new Error(message), { code });
/** As Drizzle wraps a driver's error: the statement's text, with the driver's error as cause. */
const drizzleError = (cause: unknown) =>
  Object.assign(new Error("Failed query: insert into inquiries …"), { cause });

describe("isDatabaseUnavailable", () => {
  it("a server shut down, restarting, or its connection lost", () => {
    expect(
      isDatabaseUnavailable(
        drizzleError(pgError("57P01", "terminating connection due to administrator command")),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(pgError("57P03", "the database system is starting up"))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(pgError("08006"))).toBe(true);
    expect(
      isDatabaseUnavailable(drizzleError(new Error("Connection terminated unexpectedly"))),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error("Client has encountered a connection error and is not queryable"),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("ECONNREFUSED"))).toBe(true);
  });

  it("a full disk, too many connections, a statement past its timeout", () => {
    expect(isDatabaseUnavailable(pgError("53100"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("53300"))).toBe(true);
    expect(
      isDatabaseUnavailable(
        drizzleError(pgError("57014", "canceling statement due to statement timeout")),
      ),
    ).toBe(true);
  });

  it("not a wrong statement, a broken rule or our own bug", () => {
    expect(isDatabaseUnavailable(drizzleError(pgError("23505", "duplicate key")))).toBe(false);
    expect(isDatabaseUnavailable(pgError("42P01", "relation does not exist"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable("a string")).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
