import { describe, expect, it } from "vitest";
import {
  groupTrainingMenu,
  isPromotedTrainingCourse,
} from "#server/catalogue/navigation.server.ts";

describe("isPromotedTrainingCourse (footer and home keyword rule)", () => {
  const course = (
    title: string,
    categoryName: string | null = null,
    partnerName: string | null = null,
  ) => ({
    title,
    categoryName,
    partnerName,
  });

  it.each([
    ["Introduction to Counter Fraud", null],
    ["OSINT Investigations Masterclass", null],
    ["Security Awareness for Finance", null],
    ["Data Handling Basics", "Fraud Prevention"],
    ["osint for beginners", "anything"],
    ["Insider FRAUD", null],
  ])("keeps partner-less %s (category %s)", (title, category) => {
    expect(isPromotedTrainingCourse(course(title, category))).toBe(true);
  });

  it("drops partner-less courses that mention none of the keywords", () => {
    expect(isPromotedTrainingCourse(course("Data Protection Essentials", "Compliance & KYC"))).toBe(
      false,
    );
  });

  it("drops a matching course that has a partner", () => {
    expect(isPromotedTrainingCourse(course("Fraud Prevention Essentials", "Fraud", "Cifas"))).toBe(
      false,
    );
  });

  it("does not treat 'security' in the category as a match (only fraud counts there)", () => {
    expect(isPromotedTrainingCourse(course("Phishing Basics", "Cyber Security"))).toBe(false);
  });
});

describe("groupTrainingMenu (header Training dropdown)", () => {
  it("lists partner-less courses, then one group per partner, keeping the given order", () => {
    const menu = groupTrainingMenu([
      { title: "A", slug: "a", partnerName: "Cifas" },
      { title: "B", slug: "b", partnerName: null },
      { title: "C", slug: "c", partnerName: "Academy" },
      { title: "D", slug: "d", partnerName: "Cifas" },
      { title: "E", slug: "e", partnerName: null },
    ]);
    expect(menu.exclusive.map((c) => c.slug)).toEqual(["b", "e"]);
    expect(menu.partners.map((g) => [g.partnerName, g.courses.map((c) => c.slug)])).toEqual([
      ["Cifas", ["a", "d"]],
      ["Academy", ["c"]],
    ]);
  });

  it("keeps the newest few of each group and counts the rest", () => {
    const course = (n: number, partnerName: string | null) => ({
      title: `T${n}`,
      slug: `t${n}`,
      partnerName,
    });
    const list = [
      ...Array.from({ length: 5 }, (_, i) => course(i, null)),
      ...Array.from({ length: 3 }, (_, i) => course(10 + i, "Cifas")),
      course(20, "Academy"),
    ];
    const menu = groupTrainingMenu(list, 2);
    expect(menu.exclusive.map((c) => c.slug)).toEqual(["t0", "t1"]);
    expect(menu.exclusiveMore).toBe(3);
    expect(menu.partners).toEqual([
      { partnerName: "Cifas", courses: [course(10, "Cifas"), course(11, "Cifas")], more: 1 },
      { partnerName: "Academy", courses: [course(20, "Academy")], more: 0 },
    ]);
  });

  it("is empty for no courses", () => {
    expect(groupTrainingMenu([])).toEqual({ exclusive: [], exclusiveMore: 0, partners: [] });
  });
});
