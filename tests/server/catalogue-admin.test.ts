import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { categoryFormSchema } from "#app/lib/catalogue/category-form.ts";
import { courseFormSchema, type CourseFormInput } from "#app/lib/catalogue/course-form.ts";
import { partnerFormSchema } from "#app/lib/catalogue/partner-form.ts";
import { InvalidInputError, onCatalogueChange } from "#server/catalogue/write.server.ts";
import {
  createCategory,
  deleteCategory,
  listCategories,
  listCategoryOptions,
  updateCategory,
} from "#server/catalogue/categories.server.ts";
import {
  createCourse,
  deleteCourse,
  getAdminCourse,
  listAdminCourses,
  updateCourse,
} from "#server/catalogue/course-admin.server.ts";
import { findPublishedCourse } from "#server/catalogue/courses.server.ts";
import { listMenuCourses } from "#server/catalogue/navigation.server.ts";
import { courses } from "#server/db/schema.ts";
import {
  createPartner,
  deletePartner,
  listPartnerOptions,
  listPartners,
  updatePartner,
} from "#server/catalogue/partners.server.ts";
import { ADMIN } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { useTemporaryMediaStorage } from "#tests/support/media-storage.ts";

const database = useFreshDatabase();

useTemporaryMediaStorage("nw-media-");

const course = (input: CourseFormInput) => courseFormSchema.parse(input);
const category = (input: Record<string, string>) => categoryFormSchema.parse(input);
const partner = (input: Record<string, string>) => partnerFormSchema.parse(input);

describe("categories", () => {
  it("creates with a slug generated from the name, or the one typed", async () => {
    const a = await createCategory(
      category({ name: "Fraud & Risk: 101", description: " Basics " }),
      ADMIN,
    );
    expect(a).toMatchObject({
      name: "Fraud & Risk: 101",
      slug: "fraud-risk-101",
      description: "Basics",
    });
    const b = await createCategory(category({ name: "OSINT", slug: "open-source" }), ADMIN);
    expect(b.slug).toBe("open-source");
    expect((await listCategories()).map((c) => c.name)).toEqual(["Fraud & Risk: 101", "OSINT"]);
    expect(await listCategoryOptions()).toEqual([
      { id: a.id, name: "Fraud & Risk: 101" },
      { id: b.id, name: "OSINT" },
    ]);
  });

  it("a generated slug that clashes gets a numeric suffix; a typed one is refused", async () => {
    await createCategory(category({ name: "Fraud" }), ADMIN);
    expect((await createCategory(category({ name: "fraud!" }), ADMIN)).slug).toBe("fraud-2");
    const error = await createCategory(category({ name: "Other", slug: "fraud" }), ADMIN).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.errors).toEqual({ slug: "Another category already uses this slug" });
    expect(await listCategories()).toHaveLength(2);
  });

  it("updates; an emptied slug is generated again, keeping its own numbered slug", async () => {
    await createCategory(category({ name: "Fraud" }), ADMIN);
    const second = await createCategory(category({ name: "Fraud" }), ADMIN);
    expect(second.slug).toBe("fraud-2");
    const kept = await updateCategory(
      second.id,
      category({ name: "Fraud", description: "x" }),
      ADMIN,
    );
    expect(kept).toMatchObject({ slug: "fraud-2", description: "x" });
    const renamed = await updateCategory(second.id, category({ name: "Cyber Crime" }), ADMIN);
    expect(renamed?.slug).toBe("cyber-crime");
    expect(
      await updateCategory("00000000-0000-4000-8000-000000000000", category({ name: "X" }), ADMIN),
    ).toBeNull();
  });

  it("deleting a category leaves its courses uncategorised", async () => {
    const fraud = await createCategory(category({ name: "Fraud" }), ADMIN);
    const c = await createCourse(course({ title: "Fraud 101", category_id: fraud.id }), ADMIN);
    expect(c.categoryName).toBe("Fraud");
    expect(await deleteCategory(fraud.id, ADMIN)).toBe(true);
    expect(await deleteCategory(fraud.id, ADMIN)).toBe(false);
    expect(await getAdminCourse(c.id)).toMatchObject({ categoryId: null, categoryName: null });
  });
});

describe("partners", () => {
  it("creates, lists newest first, updates and offers options by name", async () => {
    const a = await createPartner(
      partner({ name: "Zeta Academy", website_url: "https://zeta.example" }),
      ADMIN,
    );
    const b = await createPartner(
      partner({
        name: "Cifas",
        purchase_url: "https://cifas.example/buy",
        contact_email: "t@cifas.example",
      }),
      ADMIN,
    );
    await database().db.execute(
      `update course_partners set created_at = now() - interval '1 day' where id = '${a.id}'`,
    );
    expect((await listPartners()).map((p) => p.name)).toEqual(["Cifas", "Zeta Academy"]);
    expect((await listPartnerOptions()).map((p) => p.name)).toEqual(["Cifas", "Zeta Academy"]);
    const updated = await updatePartner(
      b.id,
      partner({ name: "Cifas Ltd", description: "Body" }),
      ADMIN,
    );
    expect(updated).toMatchObject({
      name: "Cifas Ltd",
      description: "Body",
      purchaseUrl: null,
      contactEmail: null,
    });
  });

  it("deleting a partner leaves its courses partner-less", async () => {
    const p = await createPartner(partner({ name: "Cifas" }), ADMIN);
    const c = await createCourse(course({ title: "Cifas Course", partner_id: p.id }), ADMIN);
    expect(c.partnerName).toBe("Cifas");
    expect(await deletePartner(p.id, ADMIN)).toBe(true);
    expect(await getAdminCourse(c.id)).toMatchObject({ partnerId: null, partnerName: null });
  });
});

describe("courses", () => {
  it("creates with the defaults: draft, online, no price, no duration, slug from the title", async () => {
    const c = await createCourse(course({ title: "Intro to Counter-Fraud" }), ADMIN);
    expect(c).toMatchObject({
      slug: "intro-to-counter-fraud",
      status: "draft",
      deliveryType: "online",
      groupType: null,
      price: null,
      durationHours: null,
      featured: false,
      categoryId: null,
      partnerId: null,
      externalLink: null,
      content: null,
    });
  });

  it("stores every field: price in pence precision, whole hours, choices and links", async () => {
    const fraud = await createCategory(category({ name: "Fraud" }), ADMIN);
    const cifas = await createPartner(partner({ name: "Cifas" }), ADMIN);
    const c = await createCourse(
      course({
        title: "  Advanced OSINT ",
        slug: "adv-osint",
        short_description: "Short",
        description: "Long",
        price: "1450.5",
        duration_hours: "14",
        status: "published",
        delivery_type: "classroom",
        group_type: "group",
        category_id: fraud.id,
        partner_id: cifas.id,
        external_link: "https://partner.example/course?id=1",
        featured: "on",
      }),
      ADMIN,
    );
    expect(c).toMatchObject({
      title: "Advanced OSINT",
      slug: "adv-osint",
      shortDescription: "Short",
      description: "Long",
      price: "1450.50",
      durationHours: 14,
      status: "published",
      deliveryType: "classroom",
      groupType: "group",
      categoryName: "Fraud",
      partnerName: "Cifas",
      externalLink: "https://partner.example/course?id=1",
      featured: true,
    });
    // 'none' is no partner; a free course is price 0, kept apart from 'no price'.
    const free = await createCourse(
      course({ title: "Free", price: "0", partner_id: "none" }),
      ADMIN,
    );
    expect(free).toMatchObject({ price: "0.00", partnerId: null });
  });

  it("keeps slugs unique: same title → numeric suffix; typed clash → message, nothing saved", async () => {
    const first = await createCourse(course({ title: "Fraud Basics" }), ADMIN);
    const second = await createCourse(course({ title: "Fraud  basics!" }), ADMIN);
    const third = await createCourse(course({ title: "Fraud Basics" }), ADMIN);
    expect([first.slug, second.slug, third.slug]).toEqual([
      "fraud-basics",
      "fraud-basics-2",
      "fraud-basics-3",
    ]);
    const error = await createCourse(course({ title: "Other", slug: "fraud-basics" }), ADMIN).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.errors).toEqual({ slug: "Another course already uses this slug" });
    expect(await listAdminCourses()).toHaveLength(3);
    // Punctuation-only titles still get a slug.
    expect((await createCourse(course({ title: "???" }), ADMIN)).slug).toBe("course");
  });

  it("concurrent creates with the same title all succeed with distinct slugs", async () => {
    const created = await Promise.all(
      Array.from({ length: 6 }, () =>
        createCourse(course({ title: "Race Condition Course" }), ADMIN),
      ),
    );
    const slugs = created.map((c) => c.slug).sort();
    expect(new Set(slugs).size).toBe(6);
    expect(slugs).toEqual(
      ["", "-2", "-3", "-4", "-5", "-6"].map((s) => `race-condition-course${s}`).sort(),
    );
  });

  it("updates: typed slug kept, emptied slug regenerated, typed clash refused", async () => {
    const a = await createCourse(course({ title: "Alpha" }), ADMIN);
    const b = await createCourse(course({ title: "Beta" }), ADMIN);
    const edited = await updateCourse(
      b.id,
      course({ title: "Beta v2", slug: "beta", price: "10" }),
      ADMIN,
    );
    expect(edited).toMatchObject({ title: "Beta v2", slug: "beta", price: "10.00" });
    const regenerated = await updateCourse(b.id, course({ title: "Beta v2", slug: "" }), ADMIN);
    expect(regenerated?.slug).toBe("beta-v2");
    const error = await updateCourse(b.id, course({ title: "Beta", slug: a.slug }), ADMIN).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((await getAdminCourse(b.id))?.slug).toBe("beta-v2");
    expect(
      await updateCourse("00000000-0000-4000-8000-000000000000", course({ title: "X" }), ADMIN),
    ).toBeNull();
  });

  it("a category or partner deleted meanwhile is a field message, nothing saved", async () => {
    const gone = "00000000-0000-4000-8000-000000000001";
    const e1 = await createCourse(course({ title: "X", category_id: gone }), ADMIN).catch((e) => e);
    expect(e1).toBeInstanceOf(InvalidInputError);
    expect(Object.keys(e1.errors)).toEqual(["category_id"]);
    const e2 = await createCourse(course({ title: "X", partner_id: gone }), ADMIN).catch((e) => e);
    expect(Object.keys(e2.errors)).toEqual(["partner_id"]);
    expect(await listAdminCourses()).toHaveLength(0);
  });

  it("sanitises content HTML on save: no script, handler or javascript: URL survives", async () => {
    const dirty = [
      `<h2 class="ql-align-center">Outline</h2>`,
      `<p><strong>Bold</strong> <span style="color: rgb(230, 0, 0);">red</span></p>`,
      `<script>alert(1)</script>`,
      `<img src="x" onerror="alert(1)">`,
      `<img src="/media/content/content-1-ab.png" onload="alert(2)">`,
      `<a href="javascript:alert(3)">bad</a> <a href="https://ok.example" onclick="x()">ok</a>`,
      `<a href="jav&#x09;ascript:alert(4)">tab</a>`,
      `<iframe src="https://evil.example"></iframe><svg onload="alert(5)"></svg>`,
      `<p style="background-image: url(javascript:alert(6))">styled</p>`,
      `<ul><li>one</li></ul><ol><li class="ql-indent-1">two</li></ol>`,
    ].join("");
    const c = await createCourse(course({ title: "XSS", content: dirty }), ADMIN);
    const [stored] = await database()
      .db.select({ content: courses.content })
      .from(courses)
      .where(eq(courses.id, c.id));
    const html = stored!.content!;
    expect(html).not.toMatch(/<script|<iframe|<svg|javascript:|\son\w+=|alert\(/i);
    expect(html).not.toContain("background-image");
    expect(html).toContain(`<h2 class="ql-align-center">Outline</h2>`);
    expect(html).toContain(`<span style="color:rgb(230, 0, 0)">red</span>`);
    expect(html).toContain(`<img src="/media/content/content-1-ab.png"`);
    expect(html).toContain(
      `<a href="https://ok.example" target="_blank" rel="noopener noreferrer">ok</a>`,
    );
    expect(html).toContain(`<li class="ql-indent-1">two</li>`);

    const updated = await updateCourse(
      c.id,
      course({ title: "XSS", content: `<p onmouseover="x()">hi<script>1</script></p>` }),
      ADMIN,
    );
    expect(updated?.content).toBe("<p>hi</p>");
    // Content that sanitises to nothing is stored as none.
    const empty = await updateCourse(
      c.id,
      course({ title: "XSS", content: "<script>x</script>" }),
      ADMIN,
    );
    expect(empty?.content).toBeNull();
  });

  it("lists partner-less courses first, then newest first, any status", async () => {
    const p = await createPartner(partner({ name: "Cifas" }), ADMIN);
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    const rows = [
      { title: "Old own", partner: false, day: 1, status: "published" },
      { title: "New partner", partner: true, day: 5, status: "draft" },
      { title: "New own", partner: false, day: 4, status: "archived" },
      { title: "Old partner", partner: true, day: 2, status: "published" },
    ] as const;
    for (const r of rows) {
      const c = await createCourse(
        course({ title: r.title, status: r.status, partner_id: r.partner ? p.id : "none" }),
        ADMIN,
      );
      await database()
        .db.update(courses)
        .set({ createdAt: day(r.day) })
        .where(eq(courses.id, c.id));
    }
    expect((await listAdminCourses()).map((c) => c.title)).toEqual([
      "New own",
      "Old own",
      "New partner",
      "Old partner",
    ]);
  });

  it("public pages see a change on their next read: publish, archive, delete", async () => {
    let changes = 0;
    const stop = onCatalogueChange(() => changes++);
    const c = await createCourse(course({ title: "Shown When Published" }), ADMIN);
    expect((await findPublishedCourse(c.slug)).kind).toBe("not_found");
    await updateCourse(c.id, course({ title: "Shown When Published", status: "published" }), ADMIN);
    expect((await findPublishedCourse(c.slug)).kind).toBe("found");
    expect((await listMenuCourses()).map((m) => m.slug)).toContain(c.slug);
    await updateCourse(c.id, course({ title: "Shown When Published", status: "archived" }), ADMIN);
    expect((await findPublishedCourse(c.slug)).kind).toBe("not_found");
    expect(await deleteCourse(c.id, ADMIN)).toBe(true);
    expect(await deleteCourse(c.id, ADMIN)).toBe(false);
    expect(await getAdminCourse(c.id)).toBeNull();
    expect(changes).toBe(4);
    stop();
  });
});
