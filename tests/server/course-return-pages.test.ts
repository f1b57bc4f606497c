import { describe, expect, it } from "vitest";
import { loadCanceledPage, loadSuccessPage } from "#server/payments/checkout.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourse } from "#tests/support/factories.ts";

/**
 * The checkout's return pages (`/courses/<slug>/canceled`, `/success?invoice=true`,
 * `/success?session_id=…`) name the course: a published one only. A draft's or an archived
 * course's title is not public, so they answer not found, as the course page does.
 */
useFreshDatabase();

const page = (slug: string, query: string) =>
  loadSuccessPage(slug, new Request(`http://localhost/courses/${slug}/success?${query}`));

describe("the checkout's return pages", () => {
  it("name a published course", async () => {
    await insertCourse({ slug: "on-sale", title: "On Sale" });
    expect(await loadCanceledPage("on-sale")).toEqual({ slug: "on-sale", title: "On Sale" });
    expect(await page("on-sale", "invoice=true")).toMatchObject({
      kind: "invoice",
      course: { title: "On Sale" },
    });
  });

  for (const status of ["draft", "archived"] as const) {
    it(`answer not found for ${status === "draft" ? "a draft" : "an archived"} course, whatever the query`, async () => {
      await insertCourse({ slug: `a-${status}`, title: `Secret ${status} title`, status });
      expect(await loadCanceledPage(`a-${status}`)).toBeNull();
      expect(await page(`a-${status}`, "invoice=true")).toBeNull();
      expect(await page(`a-${status}`, "session_id=cs_test_123")).toBeNull();
      expect(await page(`a-${status}`, "")).toBeNull();
    });
  }
});
