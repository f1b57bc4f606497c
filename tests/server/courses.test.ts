import { describe, expect, it } from "vitest";
import {
  listMenuCourses,
  listPromotedCourses,
  loadSiteNavigation,
} from "#server/catalogue/navigation.server.ts";
import { categories, coursePartners, courses } from "#server/db/schema.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

const database = useFreshDatabase();

async function insertCatalogue() {
  const { db } = database();
  const [fraud] = await db
    .insert(categories)
    .values({ name: "Fraud Prevention", slug: "fraud-prevention" })
    .returning();
  const [cifas] = await db.insert(coursePartners).values({ name: "Cifas" }).returning();
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));
  await db.insert(courses).values([
    { slug: "old-fraud", title: "Old Fraud Course", status: "published", createdAt: day(1) },
    { slug: "osint", title: "OSINT Basics", status: "published", createdAt: day(2) },
    {
      slug: "plain",
      title: "Data Protection",
      status: "published",
      createdAt: day(3),
      categoryId: fraud!.id,
    },
    { slug: "other", title: "Presentation Skills", status: "published", createdAt: day(4) },
    { slug: "draft", title: "Draft Fraud Course", status: "draft", createdAt: day(5) },
    { slug: "archived", title: "Archived Security", status: "archived", createdAt: day(6) },
    {
      slug: "partner",
      title: "Cifas Fraud",
      status: "published",
      createdAt: day(7),
      partnerId: cifas!.id,
    },
  ]);
}

describe("public course reads", () => {
  it("the menu lists published courses only, newest first, with partner names", async () => {
    await insertCatalogue();
    const menu = await listMenuCourses();
    expect(menu).toEqual([
      { title: "Cifas Fraud", slug: "partner", partnerName: "Cifas" },
      { title: "Presentation Skills", slug: "other", partnerName: null },
      { title: "Data Protection", slug: "plain", partnerName: null },
      { title: "OSINT Basics", slug: "osint", partnerName: null },
      { title: "Old Fraud Course", slug: "old-fraud", partnerName: null },
    ]);
  });

  it("promoted courses follow the keyword rule (category counts too) and the limit", async () => {
    await insertCatalogue();
    expect((await listPromotedCourses()).map((c) => c.slug)).toEqual([
      "plain",
      "osint",
      "old-fraud",
    ]);
    expect((await listPromotedCourses(2)).map((c) => c.slug)).toEqual(["plain", "osint"]);
  });

  it("the site navigation groups the dropdown and limits the footer to five", async () => {
    const { db } = database();
    await db.insert(courses).values(
      Array.from({ length: 7 }, (_, i) => ({
        slug: `fraud-${i}`,
        title: `Fraud ${i}`,
        status: "published" as const,
        createdAt: new Date(Date.UTC(2026, 1, i + 1)),
      })),
    );
    const nav = await loadSiteNavigation();
    expect(nav.footerCourses.map((c) => c.slug)).toEqual([
      "fraud-6",
      "fraud-5",
      "fraud-4",
      "fraud-3",
      "fraud-2",
    ]);
    expect(nav.trainingMenu.exclusive).toHaveLength(7);
    expect(nav.trainingMenu.partners).toEqual([]);
  });
});

describe("schema rules", () => {
  it("deleting a category or partner leaves its courses uncategorised and partner-less", async () => {
    await insertCatalogue();
    const { db } = database();
    await db.delete(categories);
    await db.delete(coursePartners);
    const rows = await db.select().from(courses);
    expect(rows).toHaveLength(7);
    expect(rows.every((r) => r.categoryId === null && r.partnerId === null)).toBe(true);
  });

  it("refuses a duplicate course slug and an unknown status", async () => {
    const { db } = database();
    await db.insert(courses).values({ slug: "same", title: "One" });
    await expect(db.insert(courses).values({ slug: "same", title: "Two" })).rejects.toMatchObject({
      cause: expect.objectContaining({ code: "23505" }),
    });
    await expect(
      db.insert(courses).values({ slug: "x", title: "X", status: "live" as never }),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: "22P02" }) });
  });
});
