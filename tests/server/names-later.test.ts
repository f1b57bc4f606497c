import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dateRegister } from "#server/catalogue/date-register.server.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, orderStudents } from "#server/db/schema.ts";
import { bookerPage } from "#server/orders/booker-page.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { changeStudent } from "#server/orders/student-changes.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { insertCourse, placeOrder, students } from "#tests/support/orders.ts";

/**
 * Places bought for others with names to follow (decision 0037): the checkout keeps each place's
 * number, the blank ones are 'name to follow' everywhere (booker's page, order page, register),
 * and the booker names them later on their page, on both databases.
 */
useFreshDatabase();

describe("names to follow", () => {
  it("keep their place numbers until the booker names them", async () => {
    const course = await insertCourse({ slug: "names-later" });
    const date = await insertCourseDate(course.id);
    const [first, , third] = students(3);
    const blank = { firstName: "", lastName: "", email: "" };
    const placed = await placeOrder(
      course.id,
      "invoice",
      { quantity: 3, namesLater: true, students: [first!, blank, third!] },
      date.id,
    );
    if (!placed.ok) throw new Error(placed.reason);
    const { order } = placed;

    const stored = await db()
      .select()
      .from(orderStudents)
      .where(eq(orderStudents.orderId, order.id));
    expect(stored.map((s) => [s.position, s.firstName]).sort()).toEqual([
      [0, "Student1"],
      [2, "Student3"],
    ]);
    expect((await bookerPage(order.id))?.places.map((p) => p.name)).toEqual([
      "Student1 Smith",
      null,
      "Student3 Smith",
    ]);
    const admin = await orderPage(order.id);
    expect(admin?.order.students.map((s) => s.position)).toEqual([0, 2]);
    const register = await dateRegister(date.id);
    expect(register?.places.filter((p) => p.orderId === order.id).map((p) => p.name)).toEqual([
      "Student1 Smith",
      null,
      "Student3 Smith",
    ]);
    // The confirmation lists the named students only.
    const [confirmation] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, order.id))
      .then((rows) => rows.filter((r) => r.kind === "invoice_request_confirmation"));
    expect(confirmation?.text).toContain("Student3 Smith");

    const named = await changeStudent(order.id, {
      place: 2,
      first_name: "Later",
      last_name: "Named",
      email: "later@example.com",
    });
    expect(named).toMatchObject({ ok: true, changed: true });
    expect((await bookerPage(order.id))?.places[1]?.name).toBe("Later Named");
  });

  it("are refused when the box is not ticked", async () => {
    const course = await insertCourse({ slug: "names-now" });
    const date = await insertCourseDate(course.id);
    const blank = { firstName: "", lastName: "", email: "" };
    const placed = await placeOrder(
      course.id,
      "invoice",
      { quantity: 2, students: [students(1)[0]!, blank] },
      date.id,
    );
    expect(placed.ok).toBe(false);
  });
});
