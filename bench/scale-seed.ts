import path from "node:path";
import pg from "pg";
import { round } from "./lib.ts";

/**
 * The volume the scale benchmark (scale.ts) runs at, seeded into a fresh PostgreSQL database
 * that already holds the demo content: 1,000 published courses in all, 100,000 orders (with PO
 * numbers, and named students), 200,000 inquiries, 400,000 stored e-mails, 50,000 subscribers
 * and 2,000 course dates with 20,000 bookings, inserted by `insert … select … generate_series`.
 * The same statements seed the embedded database (PGlite) under a data directory.
 */

/** What the seed needs of a database: a statement with parameters, and its rows. */
type Query = <Row>(text: string, params?: unknown[]) => Promise<{ rows: Row[] }>;

export const SCALE = {
  courses: 1000,
  orders: 100_000,
  // Two named students on every other order.
  students: 100_000,
  inquiries: 200_000,
  // Stored e-mails: two per inquiry (alert and confirmation).
  emails: 400_000,
  subscribers: 50_000,
  /** Course dates (decision 0033): 40 courses with 50 each; one course's 50 share the bookings. */
  dates: 2_000,
  datedBookings: 20_000,
};
/** The volume seeded into a PostgreSQL database. */
export async function seedVolume(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await seed(async <Row>(text: string, params?: unknown[]) => ({
      rows: (await client.query(text, params)).rows as Row[],
    }));
  } finally {
    await client.end();
  }
}

/**
 * The volume seeded into the embedded database of a data directory (DATA_DIR/db), while no site
 * holds it: PGlite in this process, closed after.
 */
export async function seedVolumeEmbedded(dataDir: string) {
  const { openPGlite } = await import("#server/db/pglite.server.ts");
  const client = await openPGlite(path.join(dataDir, "db"));
  try {
    return await seed((text, params) => client.query(text, params));
  } finally {
    await client.close();
  }
}

async function seed(query: Query) {
  const started = Date.now();
  const { rows } = await query<{ n: string }>(
    "select count(*) as n from courses where status = 'published'",
  );
  const missing = Math.max(0, SCALE.courses - Number(rows[0]!.n));
  // Courses: a spread of categories, partners (a third partner-less), prices and ages.
  await query(
    `insert into courses (slug, title, short_description, description, content, price, duration_hours,
                            status, delivery_type, featured, category_id, partner_id, created_at, updated_at)
       select 'bench-course-' || g,
              (array['Fraud', 'OSINT', 'Security', 'Compliance', 'Leadership'])[1 + g % 5] || ' course ' || g,
              'A short description of bench course ' || g || ' for the catalogue card.',
              'The longer description of bench course ' || g || '. ' || repeat('Learn to spot and stop fraud. ', 10),
              '<h2>Outline</h2><p>' || repeat('Module content. ', 40) || '</p>',
              (100 + (g * 37) % 2400)::numeric(10,2),
              1 + g % 40,
              'published',
              (array['online', 'classroom', 'blended'])[1 + g % 3],
              false,
              (select id from categories order by slug offset (g % greatest(1, (select count(*) from categories)::int)) limit 1),
              case when g % 3 = 0 then null
                   else (select id from course_partners order by name offset (g % greatest(1, (select count(*) from course_partners)::int)) limit 1) end,
              now() - (g || ' hours')::interval,
              now() - (g || ' hours')::interval
       from generate_series(1, $1::int) g`,
    [missing],
  );
  // paid_at (migration 0018): set on the paid ones where the schema has it, so the same seed
  // runs against a build from before it for a side-by-side run.
  const hasPaidAt = (
    await query(
      "select 1 from information_schema.columns where table_name = 'orders' and column_name = 'paid_at'",
    )
  ).rows.length;
  // Orders: unit price from the course, total = unit × quantity, 1–10 places.
  await query(
    `with c as (
         select id, title, (price * 100)::int as pence, row_number() over (order by id) - 1 as rn
         from courses where status = 'published' and price > 0),
       k as (select count(*)::int as n from c)
       insert into orders (status, payment_method, buyer_first_name, buyer_last_name, buyer_email, buyer_phone,
                           buyer_company, course_id, course_title_snapshot, unit_price_cents, quantity,
                           total_amount_cents, net_amount_cents, vat_amount_cents, currency,
                           is_buyer_student, stripe_checkout_session_id,
                           billing_organisation, po_number, ${hasPaidAt ? "paid_at, " : ""}created_at, updated_at)
       select (array['pending', 'invoiced', 'paid', 'paid', 'paid', 'failed', 'canceled']::order_status[])[1 + g % 7],
              case when g % 3 = 0 then 'invoice'::payment_method else 'stripe'::payment_method end,
              (array['Alice', 'Bob', 'Chidi', 'Dana', 'Erin', 'Farah', 'Gwen', 'Hugo'])[1 + g % 8],
              (array['Smith', 'Jones', 'Patel', 'Brown', 'Okafor', 'Taylor', 'Evans'])[1 + g % 7] || g,
              'buyer' || g || '@example.com',
              '+44 20 7946 ' || lpad((g % 10000)::text, 4, '0'),
              'Company ' || (g % 5000),
              c.id, c.title, c.pence, 1 + g % 10, c.pence * (1 + g % 10), c.pence * (1 + g % 10), 0,
              'GBP', g % 10 = 0,
              case when g % 3 = 0 then null else 'cs_bench_' || g end,
              'Organisation ' || (g % 5000),
              'PO-' || lpad(g::text, 7, '0'),
              ${hasPaidAt ? "case when g % 7 in (2, 3, 4) then now() - (g || ' minutes')::interval end," : ""}
              now() - (g || ' minutes')::interval,
              now() - (g || ' minutes')::interval
       from generate_series(1, $1::int) g
       join c on c.rn = g % (select n from k)`,
    [SCALE.orders],
  );
  // Two named students on every other bench order (the demo bookings have theirs).
  await query(
    `insert into order_students (order_id, position, first_name, last_name, email)
       select o.id, p, (array['Ann', 'Ben', 'Cal', 'Dee'])[p + 1], 'Student' || o.rn || '-' || p,
              'student' || o.rn || '-' || p || '@example.com'
       from (select id, row_number() over (order by created_at) as rn from orders
             where po_number like 'PO-%' and not exists (select 1 from order_students s where s.order_id = orders.id)) o
       cross join generate_series(1, 2) p
       where o.rn % 2 = 0 and o.rn <= $1::int * 2`,
    [SCALE.students / 2],
  );
  await query(
    `insert into inquiries (name, email, phone, company, message, inquiry_type, status, notes, created_at, updated_at)
       select (array['Alice', 'Bob', 'Chidi', 'Dana', 'Erin', 'Farah', 'Gwen', 'Hugo'])[1 + g % 8] || ' ' ||
              (array['Smith', 'Jones', 'Patel', 'Brown', 'Okafor', 'Taylor', 'Evans'])[1 + g % 7] || g,
              'visitor' || g || '@example.com',
              case when g % 2 = 0 then '+44 161 496 ' || lpad((g % 10000)::text, 4, '0') end,
              case when g % 3 <> 0 then 'Organisation ' || (g % 7000) end,
              'Service Interest: Dark Web Monitoring' || chr(10) || chr(10) || repeat('We would like to know more. ', 8),
              (array['training', 'file_interrogator', 'security_consultation', 'course', 'general']::inquiry_type[])[1 + g % 5],
              (array['new', 'in_progress', 'replied', 'closed']::inquiry_status[])[1 + g % 4],
              case when g % 5 = 0 then 'Called back.' end,
              now() - (g || ' minutes')::interval,
              now() - (g || ' minutes')::interval
       from generate_series(1, $1::int) g`,
    [SCALE.inquiries],
  );
  // Stored e-mails: each inquiry's staff alert and visitor confirmation, sent.
  await query(
    `insert into email_outbox (kind, to_address, subject, html, text, status, attempts, sent_at, inquiry_id, created_at)
       select case when p = 1 then 'admin_alert' else 'visitor_confirmation' end,
              case when p = 1 then 'staff@example.com' else i.email end,
              'About your enquiry', '<p>' || repeat('Thank you for your enquiry. ', 20) || '</p>',
              repeat('Thank you for your enquiry. ', 20), 'sent', 1, i.created_at, i.id, i.created_at
       from inquiries i cross join generate_series(1, 2) p
       limit $1::int`,
    [SCALE.emails],
  );
  await query(
    `insert into newsletter_subscriptions (email, source, subscribed_at)
       select 'reader' || g || '@example.com', 'footer', now() - (g || ' minutes')::interval
       from generate_series(1, $1::int) g`,
    [SCALE.subscribers],
  );
  const datedCourse = await seedDates(query);
  // The state a running site is kept in — by autovacuum on PostgreSQL, by the hourly
  // housekeeping on PGlite (decision 0045): statistics, and the visibility map that lets counts
  // read an index alone. A server run with autovacuum off would otherwise be measured right
  // after a bulk load.
  await query("vacuum analyze");
  const counts = await query<{ courses: string; orders: string; inquiries: string }>(
    `select (select count(*) from courses where status = 'published') as courses,
              (select count(*) from orders) as orders, (select count(*) from inquiries) as inquiries`,
  );
  const c = counts.rows[0]!;
  return {
    publishedCourses: Number(c.courses),
    orders: Number(c.orders),
    inquiries: Number(c.inquiries),
    seedSeconds: round((Date.now() - started) / 1000),
    /** The first date of the course with the bookings (null on a build without dates). */
    firstDateId: datedCourse,
  };
}

/**
 * 2,000 dates: 50 on each of 40 courses sold here (every third bench course has no partner:
 * bench-course-501, -504, …; one a day from tomorrow, 09:30–16:30 UTC, 400 places), and 20,000
 * paid or invoiced one-place bookings spread over the 50 dates of bench-course-501.
 * Skipped (null) against a build from before course dates, for a side-by-side run.
 */
async function seedDates(query: Query): Promise<string | null> {
  const hasDates = (
    await query("select 1 from information_schema.tables where table_name = 'course_dates'")
  ).rows.length;
  if (!hasDates) return null;
  const perCourse = 50;
  await query(
    `insert into course_dates (course_id, starts_at, ends_at, format, venue_name, venue_town,
                               capacity, booking_closes_at)
     select c.id, d.starts_at, d.starts_at + interval '7 hours',
            case when n % 2 = 0 then 'classroom' else 'online' end::course_date_format,
            case when n % 2 = 0 then 'Training Suite' end, case when n % 2 = 0 then 'London' end,
            400, d.starts_at
     from (select id from courses where slug in (select 'bench-course-' || (501 + 3 * g) from generate_series(0, $1::int - 1) g)) c
     cross join generate_series(1, $2::int) n
     cross join lateral (select date_trunc('day', now()) + (n || ' days')::interval + interval '9 hours 30 minutes' as starts_at) d`,
    [SCALE.dates / perCourse, perCourse],
  );
  await query(
    `with d as (select cd.id, c.id as course_id, c.title, (c.price * 100)::int as pence,
                       row_number() over (order by cd.starts_at) - 1 as rn
                from course_dates cd join courses c on c.id = cd.course_id
                where c.slug = 'bench-course-501')
     insert into orders (status, payment_method, buyer_first_name, buyer_last_name, buyer_email,
                         course_id, course_date_id, course_title_snapshot, unit_price_cents, quantity,
                         total_amount_cents, net_amount_cents, vat_amount_cents, currency, created_at, updated_at)
     select case when g % 2 = 0 then 'paid' else 'invoiced' end::order_status, 'invoice',
            'Dated', 'Buyer' || g, 'dated' || g || '@example.com',
            d.course_id, d.id, d.title, d.pence, 1, d.pence, d.pence, 0, 'GBP',
            now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
     from generate_series(1, $1::int) g join d on d.rn = g % $2::int`,
    [SCALE.datedBookings, perCourse],
  );
  const first = await query<{ id: string }>(
    `select cd.id from course_dates cd join courses c on c.id = cd.course_id
     where c.slug = 'bench-course-501' order by cd.starts_at limit 1`,
  );
  return first.rows[0]?.id ?? null;
}
