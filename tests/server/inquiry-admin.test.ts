import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  INQUIRY_PAGE_SIZE,
  inquiryUpdateSchema,
  parseInquiryFilters,
  type InquiryFilters,
} from "#app/lib/inquiries/admin.ts";
import { inquiries } from "#server/db/schema.ts";
import {
  countInquiriesByStatus,
  inquiriesCsvResponse,
  latestInquiries,
  listInquiriesForAdmin,
  updateInquiryForAdmin,
} from "#server/inquiries/admin.server.ts";
import { ADMIN } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

const database = useFreshDatabase();

// No filter: every inquiry, first page.
const all: InquiryFilters = parseInquiryFilters(new URLSearchParams());
const hour = (n: number) => new Date(Date.UTC(2026, 5, 1, n));

async function insertSome() {
  const { db } = database();
  return db
    .insert(inquiries)
    .values([
      {
        name: "Ada Lovelace",
        email: "ada@example.com",
        company: "Engines Ltd",
        message: "m",
        inquiryType: "training",
        status: "new",
        createdAt: hour(1),
      },
      {
        name: "Alan Turing",
        email: "alan@bletchley.example",
        message: "m",
        inquiryType: "general",
        status: "in_progress",
        createdAt: hour(2),
      },
      {
        name: "Grace Hopper",
        email: "grace@navy.example",
        company: "100%_Navy",
        message: "m",
        inquiryType: "training",
        status: "replied",
        createdAt: hour(3),
      },
      {
        name: "Joan Clarke",
        email: "joan@example.com",
        message: "m",
        inquiryType: "file_interrogator",
        status: "closed",
        createdAt: hour(4),
      },
      {
        name: "Tommy Flowers",
        email: "tommy@example.com",
        message: "m",
        inquiryType: "security_consultation",
        status: "new",
        createdAt: hour(5),
      },
    ])
    .returning();
}

describe("admin inquiry list", () => {
  it("is newest first and filters by type, status and search in the database", async () => {
    await insertSome();
    const names = async (filters: Partial<InquiryFilters>) =>
      (await listInquiriesForAdmin({ ...all, ...filters })).items.map((i) => i.name);

    expect(await names({})).toEqual([
      "Tommy Flowers",
      "Joan Clarke",
      "Grace Hopper",
      "Alan Turing",
      "Ada Lovelace",
    ]);
    expect(await names({ type: "training" })).toEqual(["Grace Hopper", "Ada Lovelace"]);
    expect(await names({ status: "new" })).toEqual(["Tommy Flowers", "Ada Lovelace"]);
    expect(await names({ type: "training", status: "new" })).toEqual(["Ada Lovelace"]);
    // Name, e-mail or company, any case; % and _ are literal.
    expect(await names({ q: "ALAN" })).toEqual(["Alan Turing"]);
    expect(await names({ q: "bletchley" })).toEqual(["Alan Turing"]);
    expect(await names({ q: "engines" })).toEqual(["Ada Lovelace"]);
    expect(await names({ q: "100%_" })).toEqual(["Grace Hopper"]);
    expect(await names({ q: "%" })).toEqual(["Grace Hopper"]);
    expect(await names({ q: "nobody" })).toEqual([]);
  });

  it("pages through results and shows the last page for a page past the end", async () => {
    const { db } = database();
    const total = INQUIRY_PAGE_SIZE * 2 + 3;
    await db.insert(inquiries).values(
      Array.from({ length: total }, (_, i) => ({
        name: `Visitor ${i}`,
        email: `v${i}@example.com`,
        message: "m",
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })),
    );
    const first = await listInquiriesForAdmin({ ...all, page: 1 });
    expect(first).toMatchObject({ total, page: 1, pageCount: 3 });
    expect(first.items).toHaveLength(INQUIRY_PAGE_SIZE);
    expect(first.items[0]!.name).toBe(`Visitor ${total - 1}`);
    const third = await listInquiriesForAdmin({ ...all, page: 3 });
    expect(third.items.map((i) => i.name)).toEqual(["Visitor 2", "Visitor 1", "Visitor 0"]);
    expect((await listInquiriesForAdmin({ ...all, page: 99 })).page).toBe(3);
    const empty = await listInquiriesForAdmin({ ...all, q: "none", page: 4 });
    expect(empty).toMatchObject({ items: [], total: 0, page: 1, pageCount: 1 });
  });

  it("reads pages in the older half from the other end: every row once, ties in id order", async () => {
    const { db } = database();
    const total = INQUIRY_PAGE_SIZE * 4 + 7;
    // Pairs share a timestamp, so the id alone orders them.
    const rows = await db
      .insert(inquiries)
      .values(
        Array.from({ length: total }, (_, i) => ({
          name: `Visitor ${i}`,
          email: `v${i}@example.com`,
          message: "m",
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, Math.floor(i / 2))),
        })),
      )
      .returning({ id: inquiries.id, createdAt: inquiries.createdAt });
    const expected = rows
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const list = await listInquiriesForAdmin({ ...all, page });
      expect(list).toMatchObject({ total, page, pageCount: 5 });
      seen.push(...list.items.map((i) => i.id));
    }
    expect(seen).toEqual(expected);
  });

  it("counts by status with one aggregate, and the dashboard gets the 10 latest", async () => {
    const { db } = database();
    expect(await countInquiriesByStatus()).toEqual({
      new: 0,
      in_progress: 0,
      replied: 0,
      closed: 0,
      total: 0,
      suspected: 0,
    });
    expect(await latestInquiries()).toEqual([]);
    await insertSome();
    await db.insert(inquiries).values(
      Array.from({ length: 8 }, (_, i) => ({
        name: `Old ${i}`,
        email: "o@example.com",
        message: "m",
        createdAt: new Date(Date.UTC(2025, 0, i + 1)),
      })),
    );
    expect(await countInquiriesByStatus()).toEqual({
      new: 10,
      in_progress: 1,
      replied: 1,
      closed: 1,
      total: 13,
      suspected: 0,
    });
    const latest = await latestInquiries();
    expect(latest).toHaveLength(10);
    expect(latest[0]!.name).toBe("Tommy Flowers");
    expect(latest.at(-1)!.name).toBe("Old 3");
  });
});

describe("admin inquiry update", () => {
  it("changes status and notes only", async () => {
    const [ada] = await insertSome();
    const update = inquiryUpdateSchema.parse({
      id: ada!.id,
      status: "replied",
      notes: "  Called back  ",
      name: "Someone else",
      email: "x@example.com",
      message: "rewritten",
    });
    const updated = await updateInquiryForAdmin(update, ADMIN);
    expect(updated).toMatchObject({
      status: "replied",
      notes: "Called back",
      name: "Ada Lovelace",
      email: "ada@example.com",
      message: "m",
    });
    const [row] = await database().db.select().from(inquiries).where(eq(inquiries.id, ada!.id));
    expect(row).toMatchObject({ status: "replied", notes: "Called back", name: "Ada Lovelace" });
    expect(row!.updatedAt.getTime()).toBeGreaterThan(row!.createdAt.getTime());

    // Empty notes clear them; every status may follow any other.
    for (const status of ["closed", "new", "in_progress"] as const) {
      expect(
        await updateInquiryForAdmin(
          inquiryUpdateSchema.parse({ id: ada!.id, status, notes: "" }),
          ADMIN,
        ),
      ).toMatchObject({ status, notes: null });
    }
  });

  it("answers null for an unknown inquiry and refuses bad input before the database", async () => {
    expect(
      await updateInquiryForAdmin(
        {
          id: "00000000-0000-4000-8000-000000000000",
          status: "closed",
          notes: null,
        },
        ADMIN,
      ),
    ).toBeNull();
    expect(inquiryUpdateSchema.safeParse({ id: "not-a-uuid", status: "closed" }).success).toBe(
      false,
    );
    expect(
      inquiryUpdateSchema.safeParse({
        id: "00000000-0000-4000-8000-000000000000",
        status: "deleted",
      }).success,
    ).toBe(false);
    expect(
      inquiryUpdateSchema.safeParse({
        id: "00000000-0000-4000-8000-000000000000",
        status: "new",
        notes: "x".repeat(5001),
      }).success,
    ).toBe(false);
  });
});

describe("inquiries CSV export", () => {
  it("holds every filtered inquiry (all pages), escaped, and defused for spreadsheets", async () => {
    const { db } = database();
    await insertSome();
    await db.insert(inquiries).values({
      name: '=HYPERLINK("http://evil")',
      email: "evil@example.com",
      company: 'Quotes "R" Us, Ltd',
      message: "line one\nline two",
      inquiryType: "training",
      status: "new",
      createdAt: hour(6),
    });
    const response = inquiriesCsvResponse(
      { type: "training", status: "all", reply: "all", owner: "all", q: "", spam: "all" },
      "inquiries-2026-06-01.csv",
    );
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="inquiries-2026-06-01.csv"',
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A UTF-8 byte-order mark first, so that Excel reads accents correctly.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(bytes.slice(3));
    expect(
      text.startsWith(
        "Date,Name,Email,Phone,Company,Type,Status,Course,Modality,Attendees,Budget,Message,Notes,Suspected spam,ID\r\n",
      ),
    ).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).toContain(`"Quotes ""R"" Us, Ltd"`);
    expect(text).toContain(`"line one\nline two"`);
    expect(text).toContain("Grace Hopper");
    expect(text).not.toContain("Alan Turing");
    expect(text.trim().split("\r\n")).toHaveLength(1 + 3);
  });

  it("reads in batches without losing or repeating rows that share a timestamp", async () => {
    const { db } = database();
    // 2,500 rows, many created in the same microsecond: the cursor must break ties by id.
    await db.execute(sql`
      insert into inquiries (name, email, message, created_at)
      select 'Bulk ' || g, 'b' || g || '@example.com', 'm', timestamptz '2026-01-01 00:00:00.123456+00' + ((g / 7) || ' seconds')::interval
      from generate_series(1, 2500) g`);
    const text = await inquiriesCsvResponse(
      { type: "all", status: "all", reply: "all", owner: "all", q: "", spam: "all" },
      "x.csv",
    ).text();
    const lines = text.trim().split("\r\n").slice(1);
    expect(lines).toHaveLength(2500);
    const ids = new Set(lines.map((line) => line.split(",").at(-1)));
    expect(ids.size).toBe(2500);
  });
});
