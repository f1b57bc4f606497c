import { describe, expect, it } from "vitest";
import {
  findPublishedCourse,
  listCatalogue,
  listSitemapCourses,
} from "#server/catalogue/courses.server.ts";
import { categories, coursePartners, courses } from "#server/db/schema.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

const database = useFreshDatabase();

const day = (n: number) => new Date(Date.UTC(2026, 2, n));

async function insertCourses() {
  const { db } = database();
  const [fraud] = await db
    .insert(categories)
    .values({ name: "Fraud Prevention", slug: "fraud-prevention" })
    .returning();
  const [cifas] = await db
    .insert(coursePartners)
    .values({
      name: "Cifas",
      purchaseUrl: "https://www.cifas.org.uk/training",
      websiteUrl: "https://www.cifas.org.uk",
      logoUrl: "/media/logos/cifas.png",
    })
    .returning();
  const [academy] = await db
    .insert(coursePartners)
    .values({ name: "Harbourside Academy" })
    .returning();
  const rows = await db
    .insert(courses)
    .values([
      {
        slug: "zero-trust",
        title: "Zero Trust Basics",
        status: "published",
        createdAt: day(9),
        price: "295.00",
        durationHours: 7,
        categoryId: fraud!.id,
        content: "<p>Zero trust</p>",
      },
      {
        slug: "cifas-internal",
        title: "Cifas Internal Fraud",
        status: "published",
        createdAt: day(8),
        partnerId: cifas!.id,
        externalLink: "https://example.com/fallback",
      },
      { slug: "advanced-osint", title: "Advanced OSINT", status: "published", createdAt: day(7) },
      {
        slug: "interviewing",
        title: "Certificate in Interviewing",
        status: "published",
        createdAt: day(6),
        partnerId: academy!.id,
      },
      { slug: "banking", title: "Banking Fraud", status: "published", createdAt: day(5) },
      { slug: "draft-course", title: "A Draft Course", status: "draft", createdAt: day(10) },
      {
        slug: "archived-course",
        title: "An Archived Course",
        status: "archived",
        createdAt: day(11),
      },
      {
        slug: "draft-cifas",
        title: "Draft Cifas",
        status: "draft",
        createdAt: day(12),
        partnerId: cifas!.id,
      },
    ])
    .returning({ id: courses.id, slug: courses.slug });
  const ids = Object.fromEntries(rows.map((r) => [r.slug, r.id]));
  return { ids, cifas: cifas!, fraud: fraud! };
}

describe("listCatalogue", () => {
  it("all: every published course, sorted by title, with category and partner names", async () => {
    await insertCourses();
    const catalogue = await listCatalogue({ partner: null });
    expect(catalogue.filter).toEqual({ kind: "all" });
    expect(catalogue.courses.map((c) => c.slug)).toEqual([
      "advanced-osint",
      "banking",
      "interviewing",
      "cifas-internal",
      "zero-trust",
    ]);
    const zeroTrust = catalogue.courses.find((c) => c.slug === "zero-trust")!;
    expect(zeroTrust).toMatchObject({
      title: "Zero Trust Basics",
      price: "295.00",
      durationHours: 7,
      categoryName: "Fraud Prevention",
      partnerName: null,
    });
    expect(catalogue.courses.find((c) => c.slug === "cifas-internal")?.partnerName).toBe("Cifas");
  });

  it("offers one radio option per partner with a published course", async () => {
    await insertCourses();
    expect((await listCatalogue({})).partnerNames).toEqual(["Cifas", "Harbourside Academy"]);
  });

  it("exclusive: only partner-less courses", async () => {
    await insertCourses();
    const catalogue = await listCatalogue({ partner: "exclusive" });
    expect(catalogue.filter).toEqual({ kind: "exclusive" });
    expect(catalogue.courses.map((c) => c.slug)).toEqual([
      "advanced-osint",
      "banking",
      "zero-trust",
    ]);
  });

  it("a partner: only its published courses; the name is matched in any case", async () => {
    await insertCourses();
    const catalogue = await listCatalogue({ partner: "CIFAS" });
    expect(catalogue.filter).toEqual({ kind: "partner", name: "Cifas" });
    expect(catalogue.courses.map((c) => c.slug)).toEqual(["cifas-internal"]);
  });

  it("an unknown partner: no courses", async () => {
    await insertCourses();
    const catalogue = await listCatalogue({ partner: "Nobody Ltd" });
    expect(catalogue.filter).toEqual({ kind: "partner", name: "Nobody Ltd" });
    expect(catalogue.courses).toEqual([]);
  });

  it("an empty database: no courses and no partners", async () => {
    expect(await listCatalogue({})).toEqual({
      filter: { kind: "all" },
      partnerNames: [],
      courses: [],
    });
  });
});

describe("findPublishedCourse", () => {
  it("finds a published course by slug with its category and partner", async () => {
    const { cifas } = await insertCourses();
    const found = await findPublishedCourse("cifas-internal");
    expect(found.kind).toBe("found");
    if (found.kind !== "found") return;
    expect(found.course).toMatchObject({
      slug: "cifas-internal",
      title: "Cifas Internal Fraud",
      categoryName: null,
      externalLink: "https://example.com/fallback",
      partner: {
        id: cifas.id,
        name: "Cifas",
        purchaseUrl: "https://www.cifas.org.uk/training",
        websiteUrl: "https://www.cifas.org.uk",
        logoUrl: "/media/logos/cifas.png",
      },
    });
  });

  it("a partner-less course has no partner and keeps its content", async () => {
    await insertCourses();
    const found = await findPublishedCourse("zero-trust");
    expect(found).toMatchObject({
      kind: "found",
      course: {
        partner: null,
        categoryName: "Fraud Prevention",
        content: "<p>Zero trust</p>",
        price: "295.00",
        durationHours: 7,
      },
    });
  });

  it("an id of a published course asks for a redirect to its slug (any letter case)", async () => {
    const { ids } = await insertCourses();
    expect(await findPublishedCourse(ids["banking"]!)).toEqual({
      kind: "redirect",
      slug: "banking",
    });
    expect(await findPublishedCourse(ids["banking"]!.toUpperCase())).toEqual({
      kind: "redirect",
      slug: "banking",
    });
  });

  it("drafts and archived courses are not found, by slug or by id", async () => {
    const { ids } = await insertCourses();
    for (const slug of ["draft-course", "archived-course", "draft-cifas"]) {
      expect(await findPublishedCourse(slug)).toEqual({ kind: "not_found" });
      expect(await findPublishedCourse(ids[slug]!)).toEqual({ kind: "not_found" });
    }
  });

  it("unknown slugs and unknown ids are not found (and a non-uuid never reaches the id column)", async () => {
    await insertCourses();
    expect(await findPublishedCourse("no-such-course")).toEqual({ kind: "not_found" });
    expect(await findPublishedCourse("00000000-0000-4000-8000-000000000000")).toEqual({
      kind: "not_found",
    });
    expect(await findPublishedCourse("1234'; drop table courses; --")).toEqual({
      kind: "not_found",
    });
  });
});

describe("listSitemapCourses", () => {
  it("lists published courses only, with the date each last changed", async () => {
    await insertCourses();
    const list = await listSitemapCourses();
    expect(list.map((c) => c.slug).sort()).toEqual(
      ["advanced-osint", "banking", "cifas-internal", "interviewing", "zero-trust"].sort(),
    );
    expect(list.every((c) => c.updatedAt instanceof Date)).toBe(true);
  });
});
