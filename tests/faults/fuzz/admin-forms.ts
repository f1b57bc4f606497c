import {
  random,
  chance,
  int,
  pick,
  NASTY,
  BAD_EMAILS,
  randomText,
  type Fields,
  mutate,
  type Submission,
  encode,
  enc,
  dataPath,
  UUID_G,
  COURSE_STATUSES,
  DELIVERY,
  GROUPS,
  ORDER_STATUSES,
  INQUIRY_STATUSES,
  oddImage,
  ODD_SLUGS,
  ODD_PRICES,
  ODD_HOURS,
  ODD_URLS,
  ODD_HTML,
  idFrom,
} from "./values.ts";

/**
 * Malformed posts (and odd GETs) to the admin area with the admin's session cookie, aimed at
 * the ids the admin screens list now.
 */

/** Ids the admin screens list now (refreshed during the run), to aim saves and deletes at. */
export interface Pools {
  courses: string[];
  categories: string[];
  partners: string[];
  orders: string[];
  inquiries: string[];
  subscriptions: string[];
}

/** Multipart most of the time for forms with a file; the other encodings otherwise. */
export function encodeAdmin(
  target: string,
  pathName: string,
  fields: Fields,
  headers: Record<string, string>,
): Submission {
  const hasFile = Object.values(fields).some((v) => v instanceof File);
  if (hasFile && chance(0.7)) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) {
      for (const one of Array.isArray(v) ? v : [v]) {
        if (one instanceof File) form.append(k, one);
        else if (one instanceof Blob) form.append(k, one, "upload.bin");
        else form.append(k, one);
      }
    }
    const path = chance(0.5) ? dataPath(pathName) : pathName;
    // Files first, so that a short excerpt still says what was uploaded.
    const summary = Object.entries(fields)
      .sort(([, a], [, b]) => Number(b instanceof File) - Number(a instanceof File))
      .map(
        ([k, v]) =>
          `${k}=${v instanceof File ? `<file ${JSON.stringify(v.name.slice(0, 20))} ${v.type} ${v.size} B>` : v instanceof Blob ? `<blob ${v.size} B>` : JSON.stringify(v).slice(0, 40)}`,
      )
      .join(" ");
    return {
      target,
      method: "POST",
      path,
      headers,
      body: form,
      describe: `multipart ${summary}`.slice(0, 400),
    };
  }
  return encode(target, pathName, fields, headers);
}

/**
 * The admin forms' own values are odd already; a quarter go as they are (so that saves, deletes
 * and status changes really happen and the rows they write are checked), the rest mutated.
 */
export function adminMutate(
  valid: Fields,
  enumFields: Record<string, readonly string[]> = {},
): Fields {
  return chance(0.25) ? valid : mutate(valid, enumFields);
}

/** One malformed post (or odd GET) to the admin area, with the admin's session cookie. */
export function adminSubmission(siteUrl: string, cookie: string, pools: Pools): Submission {
  // Mostly the site's own Origin (as a browser sends it); now and then none, another or a broken one.
  const o = random();
  const headers: Record<string, string> = {
    cookie,
    ...(o < 0.9
      ? { origin: siteUrl }
      : o < 0.94
        ? {}
        : {
            origin: pick([
              "https://evil.example",
              "null",
              "::::",
              "http://",
              `${siteUrl}.evil.example`,
            ]),
          }),
  };
  const intent = (values: readonly string[]) =>
    chance(0.85)
      ? pick(values)
      : pick(["", "DELETE", "Save", "save ", "toggle", "update", "status", "drop", "delete\u0000"]);
  const r = random();
  if (r < 0.2) {
    const which = intent(["save", "save", "save", "delete"]);
    const valid: Fields = {
      intent: which,
      ...(chance(0.6) || which === "delete" ? { id: idFrom(pools.courses) } : {}),
      title: chance(0.8) ? `Fuzz course ${int(0, 1e6)}` : pick(NASTY),
      slug: chance(0.5) ? "" : chance(0.6) ? `fuzz-${int(0, 1e6)}` : pick(ODD_SLUGS),
      short_description: chance(0.8) ? "Short" : randomText(600),
      description: chance(0.8) ? "Longer description" : "d".repeat(pick([9_999, 10_001])),
      content: pick(ODD_HTML),
      price: chance(0.6) ? String(int(0, 2000)) : pick(ODD_PRICES),
      duration_hours: chance(0.7) ? String(int(1, 40)) : pick(ODD_HOURS),
      status: pick(COURSE_STATUSES),
      delivery_type: pick(DELIVERY),
      group_type: pick(GROUPS),
      category_id: chance(0.7) ? idFrom(pools.categories) : "",
      partner_id: chance(0.5) ? idFrom(pools.partners) : "none",
      external_link: chance(0.6) ? "" : pick(ODD_URLS),
      featured: pick(["", "on", "true", "yes", "1"]),
      ...(chance(0.5) ? { thumbnail: oddImage() } : {}),
      ...(chance(0.2) ? { remove_thumbnail: "on" } : {}),
    };
    return encodeAdmin(
      "admin courses",
      "/admin/courses",
      adminMutate(valid, { status: COURSE_STATUSES, delivery_type: DELIVERY, group_type: GROUPS }),
      headers,
    );
  }
  if (r < 0.3) {
    const which = intent(["save", "save", "delete"]);
    const valid: Fields = {
      intent: which,
      ...(chance(0.5) || which === "delete" ? { id: idFrom(pools.categories) } : {}),
      name: chance(0.8) ? `Fuzz category ${int(0, 1e6)}` : pick(NASTY),
      slug: chance(0.5) ? "" : pick(ODD_SLUGS),
      description: chance(0.8) ? "About" : "d".repeat(pick([1999, 2001])),
    };
    return encodeAdmin("admin categories", "/admin/categories", adminMutate(valid), headers);
  }
  if (r < 0.42) {
    const which = intent(["save", "save", "delete"]);
    const valid: Fields = {
      intent: which,
      ...(chance(0.5) || which === "delete" ? { id: idFrom(pools.partners) } : {}),
      name: chance(0.8) ? `Fuzz partner ${int(0, 1e6)}` : pick(NASTY),
      description: chance(0.8) ? "A partner" : randomText(2100),
      website_url: chance(0.7) ? "https://partner.example" : pick(ODD_URLS),
      purchase_url: chance(0.7) ? "" : pick(ODD_URLS),
      contact_email: chance(0.7) ? "sales@partner.example" : pick(BAD_EMAILS),
      ...(chance(0.5) ? { logo: oddImage() } : {}),
      ...(chance(0.2) ? { remove_logo: pick(["on", "true", "false", ""]) } : {}),
    };
    return encodeAdmin("admin partners", "/admin/partners", adminMutate(valid), headers);
  }
  if (r < 0.54) {
    const valid: Fields = {
      intent: intent(["status"]),
      orderId: idFrom(pools.orders),
      status: pick(ORDER_STATUSES),
    };
    return encodeAdmin(
      "admin payments",
      "/admin/payments",
      adminMutate(valid, { status: ORDER_STATUSES }),
      headers,
    );
  }
  if (r < 0.66) {
    const valid: Fields = {
      intent: intent(["update"]),
      id: idFrom(pools.inquiries),
      status: pick(INQUIRY_STATUSES),
      notes: chance(0.6)
        ? "Called back"
        : pick(["", "n".repeat(5000), "n".repeat(5001), randomText(200)]),
    };
    return encodeAdmin(
      "admin inquiries",
      "/admin/inquiries",
      adminMutate(valid, { status: INQUIRY_STATUSES }),
      headers,
    );
  }
  if (r < 0.76) {
    const valid: Fields = {
      intent: intent(["toggle"]),
      id: idFrom(pools.subscriptions),
      active: pick(["true", "false"]),
    };
    return encodeAdmin(
      "admin newsletter",
      "/admin/newsletter-subscriptions",
      adminMutate(valid, { active: ["true", "false"] }),
      headers,
    );
  }
  if (r < 0.84) {
    const fields: Fields = chance(0.8) ? { file: oddImage() } : adminMutate({ file: oddImage() });
    if (chance(0.1)) fields.file = [oddImage(), oddImage()];
    // The editor's upload is a resource route: no .data variant.
    const form = new FormData();
    for (const [k, v] of Object.entries(fields))
      for (const one of Array.isArray(v) ? v : [v])
        if (one instanceof File) form.append(k, one);
        else if (one instanceof Blob) form.append(k, one, "upload.bin");
        else form.append(k, one);
    if (chance(0.8))
      return {
        target: "admin media upload",
        method: "POST",
        path: "/api/admin/media",
        headers,
        body: form,
        describe: "multipart file",
      };
    const s = encode("admin media upload", "/api/admin/media", fields, headers);
    return { ...s, path: "/api/admin/media" };
  }
  if (r < 0.88) {
    // Posts to admin pages without an action, and to the exports.
    const p = pick([
      "/admin",
      "/admin/dashboard",
      "/admin/newsletter",
      "/admin/nowhere",
      "/admin/inquiries/export",
      "/admin/payments/export",
      "/admin/newsletter-subscriptions/export",
    ]);
    return encode(
      "admin pages, no action",
      p,
      mutate({ intent: "save", id: crypto.randomUUID() }),
      headers,
    );
  }
  // The admin lists and exports with odd search parameters: NUL bytes, bad percent-encoding,
  // unknown filters, huge pages.
  const value = () =>
    pick([
      enc(pick(NASTY)),
      "%00",
      "a%00b",
      "%",
      "%zz",
      "%E0%A4%A",
      "%ED%A0%80",
      "%C0%80",
      "%2500",
      "%FF%FE",
      enc("x".repeat(5000)),
      "1e309",
      "-0",
      "99999999999999999999",
      "2",
      "",
    ]);
  const p = pick([
    "/admin",
    "/admin/dashboard",
    "/admin/inquiries",
    "/admin/payments",
    "/admin/newsletter",
    "/admin/newsletter-subscriptions",
    "/admin/courses",
    "/admin/categories",
    "/admin/partners",
    "/admin/inquiries/export",
    "/admin/payments/export",
    "/admin/newsletter-subscriptions/export",
    "/admin/documents",
    "/admin/documents/export",
    "/admin/documents/xero",
  ]);
  const params = Array.from(
    { length: int(1, 4) },
    () =>
      `${pick(["q", "page", "status", "type", "method", "q", "x", "q[]", "%00", "p%zz", "from", "to"])}=${value()}`,
  ).join("&");
  const url = `${chance(0.25) && !p.includes("export") ? dataPath(p) : p}?${params}`;
  return {
    target: "admin lists GET",
    method: "GET",
    path: url,
    headers: { cookie },
    describe: url.slice(0, 300),
  };
}

/** What the admin screens list now (the newest rows of each), from their data endpoints. */
export async function readPools(
  siteUrl: string,
  cookie: string,
  protectedCourse: string,
): Promise<Pools> {
  const ids = async (p: string) => {
    const response = await fetch(`${siteUrl}${p}`, { headers: { cookie } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${p}: ${response.status} ${text.slice(0, 200)}`);
    return new Set(text.match(UUID_G) ?? []);
  };
  const [courses, categories, partners, orders, pending, inquiries, subscriptions] =
    await Promise.all([
      ids("/admin/courses.data"),
      ids("/admin/categories.data"),
      ids("/admin/partners.data"),
      ids("/admin/payments.data"),
      ids("/admin/payments.data?status=pending"),
      ids("/admin/inquiries.data"),
      ids("/admin/newsletter-subscriptions.data"),
    ]);
  const without = (set: Set<string>, ...others: Set<string>[]) =>
    [...set].filter((id) => id !== protectedCourse && !others.some((o) => o.has(id)));
  return {
    // The course the public forms order and ask about is left alone, so that their rows keep
    // matching it (title snapshot, unit price).
    courses: without(courses, categories, partners),
    categories: [...categories],
    partners: [...partners],
    orders: without(new Set([...orders, ...pending]), courses),
    inquiries: without(inquiries, courses),
    subscriptions: [...subscriptions],
  };
}
