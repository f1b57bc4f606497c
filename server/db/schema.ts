import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  primaryKey,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** The data model. Enumerations are database enums so no stray value can be stored. */

export const courseStatus = pgEnum("course_status", ["draft", "published", "archived"]);
export const inquiryStatus = pgEnum("inquiry_status", ["new", "in_progress", "replied", "closed"]);
export const inquiryType = pgEnum("inquiry_type", [
  "training",
  "file_interrogator",
  "security_consultation",
  "course",
  "general",
]);
export const modality = pgEnum("modality", ["online", "face_to_face"]);
export const orderStatus = pgEnum("order_status", [
  "pending",
  "invoiced",
  "paid",
  "failed",
  "canceled",
]);
export const paymentMethod = pgEnum("payment_method", ["stripe", "invoice"]);
/**
 * Why a post is held as suspected spam (decision 0012): the honeypot was filled, or the address
 * has had its hourly allowance of confirmation e-mails. NULL on everything else.
 */
export const spamReason = pgEnum("spam_reason", ["honeypot", "recipient_limit"]);

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const categories = pgTable("categories", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  description: text("description"),
  createdAt: createdAt(),
});

export const coursePartners = pgTable("course_partners", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  description: text("description"),
  logoUrl: text("logo_url"),
  websiteUrl: text("website_url"),
  purchaseUrl: text("purchase_url"),
  contactEmail: text("contact_email"),
  createdAt: createdAt(),
});

export const courses = pgTable(
  "courses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    shortDescription: text("short_description"),
    description: text("description"),
    content: text("content"),
    thumbnailUrl: text("thumbnail_url"),
    price: numeric("price", { precision: 10, scale: 2 }),
    durationHours: integer("duration_hours"),
    status: courseStatus("status").notNull().default("draft"),
    deliveryType: text("delivery_type").notNull().default("online"),
    groupType: text("group_type"),
    featured: boolean("featured").notNull().default(false),
    categoryId: uuid("category_id").references(() => categories.id, { onDelete: "set null" }),
    partnerId: uuid("partner_id").references(() => coursePartners.id, { onDelete: "set null" }),
    externalLink: text("external_link"),
    /* What a buyer needs to decide, shown on the course page when filled. */
    audience: text("audience"),
    learningOutcomes: text("learning_outcomes"),
    prerequisites: text("prerequisites"),
    /** Format and what's included (materials, lunch, certificate). */
    formatDetails: text("format_details"),
    /** Continuing professional development hours a student can record. */
    cpdHours: numeric("cpd_hours", { precision: 4, scale: 1 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // NULLS FIRST matches a plain `ORDER BY created_at DESC`, so the catalogue reads the index in
    // order.
    index("courses_status_created_at_idx").on(t.status, t.createdAt.desc().nullsFirst()),
    index("courses_category_id_idx").on(t.categoryId),
    index("courses_partner_id_idx").on(t.partnerId),
    check("courses_price_non_negative", sql`${t.price} >= 0`),
    check("courses_duration_positive", sql`${t.durationHours} >= 0`),
    check("courses_cpd_hours_non_negative", sql`${t.cpdHours} >= 0`),
  ],
);

/** The people who teach: shown on the courses they teach and on /about. */
export const trainers = pgTable("trainers", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  role: text("role"),
  bio: text("bio"),
  /** Qualifications and memberships, as staff write them. */
  credentials: text("credentials"),
  photoUrl: text("photo_url"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const courseTrainers = pgTable(
  "course_trainers",
  {
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    trainerId: uuid("trainer_id")
      .notNull()
      .references(() => trainers.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.trainerId] }),
    index("course_trainers_trainer_idx").on(t.trainerId),
  ],
);

/**
 * The About profile (one row, id 1): /about shows 'Coming Soon' until staff publish it, then
 * what staff wrote here with the trainers and the seller's registered details.
 */
export const aboutProfile = pgTable(
  "about_profile",
  {
    id: integer("id").primaryKey().default(1),
    published: boolean("published").notNull().default(false),
    story: text("story"),
    accreditations: text("accreditations"),
    partnerBodies: text("partner_bodies"),
    updatedAt: updatedAt(),
  },
  (t) => [check("about_profile_single_row", sql`${t.id} = 1`)],
);

export const inquiries = pgTable(
  "inquiries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    company: text("company"),
    message: text("message").notNull(),
    inquiryType: inquiryType("inquiry_type").notNull().default("general"),
    status: inquiryStatus("status").notNull().default("new"),
    notes: text("notes"),
    courseId: uuid("course_id").references(() => courses.id, { onDelete: "set null" }),
    courseTitleSnapshot: text("course_title_snapshot"),
    modality: modality("modality"),
    attendees: integer("attendees"),
    budget: text("budget"),
    /** Set when held as suspected spam: no e-mails were sent until an admin releases it. */
    spamReason: spamReason("spam_reason"),
    /** When the person's details were replaced (retention period passed, or an erasure request). */
    anonymisedAt: timestamp("anonymised_at", { withTimezone: true }),
    /** When staff were told its reply is overdue (decision 0047): once per enquiry. */
    replyOverdueAlertedAt: timestamp("reply_overdue_alerted_at", { withTimezone: true }),
    /** The staff member who answers it (decision 0048); null for nobody yet. */
    ownerId: text("owner_id").references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    /** A day (UK) staff mean to come back to it. */
    followUpOn: date("follow_up_on"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The list's "Mine" filter: one owner's enquiries, newest first.
    index("inquiries_owner_created_at_idx")
      .on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.ownerId} is not null`),
    // The admin list's order (newest first, id breaking ties), per filter. With the id in the
    // index, a deep page skips rows in the index alone (index-only scan) before reading 25 rows.
    // NULLS FIRST is what ORDER BY … DESC means; drizzle-kit's default (NULLS LAST) would not
    // match `desc(column)` and PostgreSQL would sort the whole table instead.
    index("inquiries_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("inquiries_status_created_at_idx").on(
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("inquiries_type_created_at_idx").on(
      t.inquiryType,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The privacy search matches an address trimmed and lower-cased.
    index("inquiries_email_lower_idx").on(sql`lower(trim(${t.email}))`),
    // The 'Suspected spam only' filter: a small partial index, newest first.
    index("inquiries_spam_created_at_idx")
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.spamReason} is not null`),
    check("inquiries_attendees_positive", sql`${t.attendees} >= 1`),
  ],
);

/**
 * A course's dated places (decision 0033): a classroom day or a live online session with a
 * capacity. Stored in UTC, shown in UK time. Places are never counted here: a date's places taken
 * are the live orders that name it (server/catalogue/course-dates.server.ts), read under a lock
 * on the date row whenever an order takes some, so the count cannot drift from the orders.
 */
export const courseDateFormat = pgEnum("course_date_format", ["classroom", "online"]);
export const courseDateState = pgEnum("course_date_state", ["scheduled", "cancelled", "completed"]);

/**
 * An enquiry's thread (decision 0048): the replies staff send from its page, each kept with who
 * sent it and the outbox message that carries it (its delivery state), and internal notes.
 */
export const inquiryReplies = pgTable(
  "inquiry_replies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    inquiryId: uuid("inquiry_id")
      .notNull()
      .references(() => inquiries.id, { onDelete: "cascade" }),
    /** Carried by the composer: the same reply posted twice is sent once. */
    submissionKey: text("submission_key").notNull(),
    /** The staff member's id, as the audit log keeps it (the account may be removed later). */
    authorId: text("author_id"),
    /** The staff member's e-mail when they sent it (their Reply-To). */
    author: text("author").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    emailId: uuid("email_id").references((): AnyPgColumn => emailOutbox.id, {
      onDelete: "set null",
    }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("inquiry_replies_submission_key_idx").on(t.inquiryId, t.submissionKey),
    index("inquiry_replies_inquiry_created_at_idx").on(t.inquiryId, t.createdAt),
  ],
);

export const inquiryNotes = pgTable(
  "inquiry_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    inquiryId: uuid("inquiry_id")
      .notNull()
      .references(() => inquiries.id, { onDelete: "cascade" }),
    /** The staff member's id, as the audit log keeps it (the account may be removed later). */
    authorId: text("author_id"),
    /** The staff member's e-mail when they wrote it. */
    author: text("author").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("inquiry_notes_inquiry_created_at_idx").on(t.inquiryId, t.createdAt)],
);

/** The reply composer's templates, which staff edit (decision 0048). */
export const inquiryReplyTemplates = pgTable("inquiry_reply_templates", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  updatedAt: updatedAt(),
  /** The admin's e-mail. */
  updatedBy: text("updated_by").notNull(),
});

/*
 * Quotes (decision 0049): built by staff (from an enquiry or from nothing), numbered Q-YYYY-NNNN
 * without gaps when first sent, and accepted or declined by the customer on a signed page.
 * A sent quote never changes: it prints from its snapshot; a revision is a new quote that
 * supersedes it. Acceptance makes an invoice order (orders.id in order_id).
 */
export const quoteStatus = pgEnum("quote_status", [
  "draft",
  "sent",
  "accepted",
  "declined",
  "expired",
  "superseded",
]);

export const quotes = pgTable(
  "quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Set when first sent; a draft has none. */
    number: text("number").unique(),
    status: quoteStatus("status").notNull().default("draft"),
    inquiryId: uuid("inquiry_id").references(() => inquiries.id, { onDelete: "set null" }),
    /** The quote this one revises (it is marked superseded when this one is sent). */
    supersedesId: uuid("supersedes_id").references((): AnyPgColumn => quotes.id, {
      onDelete: "set null",
    }),
    organisation: text("organisation").notNull(),
    contactName: text("contact_name").notNull(),
    contactEmail: text("contact_email").notNull(),
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2"),
    town: text("town"),
    postcode: text("postcode"),
    country: text("country"),
    vatNumber: text("vat_number"),
    /** What it supplies, for VAT's place of supply: classroom, live_online or on_demand. */
    supply: text("supply").notNull(),
    /** description, quantity and unit price excluding VAT (pence) of each line. */
    lines: jsonb("lines")
      .$type<{ description: string; quantity: number; unitNetCents: number }[]>()
      .notNull(),
    validUntil: date("valid_until").notNull(),
    terms: text("terms").notNull(),
    /** Worked out when saved, fixed when sent (with the VAT treatment and rate). */
    vatTreatment: text("vat_treatment").notNull(),
    vatRateBasisPoints: integer("vat_rate_basis_points").notNull(),
    netCents: integer("net_cents").notNull(),
    vatCents: integer("vat_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    /** What the quote printed when sent (server/quotes/snapshot.server.ts). */
    snapshot: jsonb("snapshot"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedName: text("accepted_name"),
    acceptedRole: text("accepted_role"),
    poNumber: text("po_number"),
    declinedAt: timestamp("declined_at", { withTimezone: true }),
    declineReason: text("decline_reason"),
    /** File Interrogator licences it sells (decision 0050): seats, and the first day (else the
     * day it is accepted). Accepting it puts them on the register. */
    licenceSeats: integer("licence_seats"),
    licenceStartsOn: date("licence_starts_on"),
    /** A renewal quote: the licence it renews. */
    renewsLicenceId: uuid("renews_licence_id").references((): AnyPgColumn => licences.id, {
      onDelete: "set null",
    }),
    /** The order its acceptance made: one at most. */
    orderId: uuid("order_id")
      .unique()
      .references((): AnyPgColumn => orders.id, { onDelete: "set null" }),
    /** The admin's e-mail. */
    createdBy: text("created_by").notNull(),
    /** When the contact's name and e-mail went (erasure, or retention: decision 0051). */
    anonymisedAt: timestamp("anonymised_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("quotes_status_created_at_idx").on(t.status, t.createdAt.desc().nullsFirst()),
    index("quotes_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("quotes_inquiry_id_idx").on(t.inquiryId),
    index("quotes_contact_email_lower_idx").on(sql`lower(trim(${t.contactEmail}))`),
    check("quotes_amounts_match", sql`${t.netCents} + ${t.vatCents} = ${t.totalCents}`),
    check("quotes_number_once_sent", sql`(${t.status} = 'draft') = (${t.number} is null)`),
    check("quotes_supply", sql`${t.supply} in ('classroom', 'live_online', 'on_demand')`),
    check("quotes_licence_seats_positive", sql`${t.licenceSeats} >= 1`),
  ],
);

/*
 * The File Interrogator licence register (decision 0050): annual licences, each from the quote
 * whose acceptance sold it, reminded before it ends and renewed by a new quote.
 */
export const licences = pgTable(
  "licences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** FI-YYYY-NNNN, without gaps. */
    reference: text("reference").notNull().unique(),
    organisation: text("organisation").notNull(),
    contactName: text("contact_name").notNull(),
    contactEmail: text("contact_email").notNull(),
    seats: integer("seats").notNull(),
    startsOn: date("starts_on").notNull(),
    /** The last day it runs (a year from the start, less a day). */
    endsOn: date("ends_on").notNull(),
    /** What a year of it costs, net of VAT (the quote's lines). */
    annualNetCents: integer("annual_net_cents").notNull(),
    quoteId: uuid("quote_id")
      .unique()
      .references((): AnyPgColumn => quotes.id, { onDelete: "set null" }),
    orderId: uuid("order_id").references((): AnyPgColumn => orders.id, { onDelete: "set null" }),
    /** The renewal quote made for it ("Renew"), and the licence that renewed it. */
    renewalQuoteId: uuid("renewal_quote_id").references((): AnyPgColumn => quotes.id, {
      onDelete: "set null",
    }),
    renewedById: uuid("renewed_by_id").references((): AnyPgColumn => licences.id, {
      onDelete: "set null",
    }),
    /** When the contact's name and e-mail went (erasure, or retention: decision 0051). */
    anonymisedAt: timestamp("anonymised_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("licences_ends_on_idx").on(t.endsOn),
    index("licences_contact_email_lower_idx").on(sql`lower(trim(${t.contactEmail}))`),
    check("licences_seats_positive", sql`${t.seats} >= 1`),
    check("licences_dates", sql`${t.endsOn} >= ${t.startsOn}`),
  ],
);

/** Each reminder of a licence's end, sent once (days before the end it was for). */
export const licenceReminders = pgTable(
  "licence_reminders",
  {
    licenceId: uuid("licence_id")
      .notNull()
      .references(() => licences.id, { onDelete: "cascade" }),
    daysBefore: integer("days_before").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.licenceId, t.daysBefore] })],
);

export const courseDates = pgTable(
  "course_dates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** A multi-day course's day-by-day times, as staff write them (optional). */
    schedule: text("schedule"),
    format: courseDateFormat("format").notNull(),
    venueName: text("venue_name"),
    venueAddress: text("venue_address"),
    /** Town shown on public pages (the full address goes only to booked people). */
    venueTown: text("venue_town"),
    /** An online date's link and dial-in: sent to booked people only, never shown publicly. */
    joiningDetails: text("joining_details"),
    capacity: integer("capacity").notNull(),
    /** This date's price per place; NULL means the course's price. */
    price: numeric("price", { precision: 10, scale: 2 }),
    bookingClosesAt: timestamp("booking_closes_at", { withTimezone: true }).notNull(),
    state: courseDateState("state").notNull().default("scheduled"),
    /**
     * The iCalendar SEQUENCE of this date's invitations: raised on every change attendees must
     * hear of (times, venue, joining details, cancellation), so calendars replace the old event.
     */
    sequence: integer("sequence").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("course_dates_course_starts_idx").on(t.courseId, t.startsAt),
    index("course_dates_state_starts_idx").on(t.state, t.startsAt),
    check("course_dates_ends_after_start", sql`${t.endsAt} > ${t.startsAt}`),
    check("course_dates_booking_closes_by_start", sql`${t.bookingClosesAt} <= ${t.startsAt}`),
    check("course_dates_capacity_range", sql`${t.capacity} between 1 and 1000`),
    check("course_dates_price_positive", sql`${t.price} is null or ${t.price} > 0`),
    check(
      "course_dates_classroom_has_venue",
      sql`${t.format} <> 'classroom' or ${t.venueName} is not null`,
    ),
  ],
);

/**
 * Waiting lists (decision 0034): for a full date (`course_date_id` set: places wanted, offered in
 * turn when places free up), or for a course without dates (`course_date_id` NULL: one e-mail
 * when the next date is published). Personal data: privacy search, export, erasure, retention.
 */
export const waitingListState = pgEnum("waiting_list_state", [
  "waiting",
  "offered",
  "booked",
  "expired",
  "removed",
  "notified",
]);

export const waitingListEntries = pgTable(
  "waiting_list_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    courseId: uuid("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    courseDateId: uuid("course_date_id").references(() => courseDates.id, {
      onDelete: "cascade",
    }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    organisation: text("organisation"),
    places: integer("places").notNull().default(1),
    consentAt: timestamp("consent_at", { withTimezone: true }).notNull(),
    state: waitingListState("state").notNull().default("waiting"),
    offeredAt: timestamp("offered_at", { withTimezone: true }),
    offerExpiresAt: timestamp("offer_expires_at", { withTimezone: true }),
    /** SHA-256 of the offer link's token (the link itself is only in the e-mail). */
    offerTokenHash: text("offer_token_hash").unique(),
    orderId: uuid("order_id").references((): AnyPgColumn => orders.id, { onDelete: "set null" }),
    spamReason: spamReason("spam_reason"),
    anonymisedAt: timestamp("anonymised_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("waiting_list_date_state_idx").on(t.courseDateId, t.state, t.createdAt),
    index("waiting_list_course_idx").on(t.courseId, t.state),
    index("waiting_list_email_lower_idx").on(sql`lower(trim(${t.email}))`),
    check("waiting_list_places_range", sql`${t.places} between 1 and 10`),
  ],
);

/**
 * Reminders sent for a date (decision 0033): one row per date, days before, and the start they
 * were counted from, claimed in the transaction that queues the e-mails, so each goes once; a
 * date moved to a new start gets its reminders again.
 */
export const courseDateReminders = pgTable(
  "course_date_reminders",
  {
    courseDateId: uuid("course_date_id")
      .notNull()
      .references(() => courseDates.id, { onDelete: "cascade" }),
    daysBefore: integer("days_before").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.courseDateId, t.daysBefore, t.startsAt] })],
);

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    status: orderStatus("status").notNull().default("pending"),
    paymentMethod: paymentMethod("payment_method").notNull(),
    buyerFirstName: text("buyer_first_name").notNull(),
    buyerLastName: text("buyer_last_name").notNull(),
    buyerEmail: text("buyer_email").notNull(),
    buyerPhone: text("buyer_phone"),
    buyerCompany: text("buyer_company"),
    courseId: uuid("course_id").references(() => courses.id, { onDelete: "set null" }),
    courseTitleSnapshot: text("course_title_snapshot").notNull(),
    /** The dated places this order takes (NULL: an on-demand course). */
    courseDateId: uuid("course_date_id").references((): AnyPgColumn => courseDates.id, {
      onDelete: "set null",
    }),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
    totalAmountCents: integer("total_amount_cents").notNull(),
    currency: text("currency").notNull().default("GBP"),
    isBuyerStudent: boolean("is_buyer_student").notNull().default(true),
    /*
     * Money (decision 0015), fixed when the order is placed: net + VAT = total; the line (unit ×
     * quantity) is the net when prices exclude VAT, the total when they include it. Orders from
     * before VAT was recorded have net = total and no VAT.
     */
    netAmountCents: integer("net_amount_cents").notNull(),
    vatAmountCents: integer("vat_amount_cents").notNull().default(0),
    vatRateBasisPoints: integer("vat_rate_basis_points").notNull().default(0),
    pricesIncludeVat: boolean("prices_include_vat").notNull().default(false),
    /**
     * UK VAT, or none by place of supply (decision 0041): 'reverse_charge' (a business in the
     * EU), 'outside_scope' (a business elsewhere abroad); decided when the order was placed.
     */
    vatTreatment: text("vat_treatment").notNull().default("uk_vat"),
    /** What has been refunded so far, through Stripe or by bank (never more than the total). */
    refundedAmountCents: integer("refunded_amount_cents").notNull().default(0),
    /**
     * What the buyer has paid against an invoice so far (decision 0042): the sum of the order's
     * `order_payments`. Above the total, the order is overpaid.
     */
    receivedAmountCents: integer("received_amount_cents").notNull().default(0),
    /* Billing details for the invoice (decision 0015); NULL on orders placed before they were
     * asked. */
    billingOrganisation: text("billing_organisation"),
    billingAddressLine1: text("billing_address_line1"),
    billingAddressLine2: text("billing_address_line2"),
    billingTown: text("billing_town"),
    billingPostcode: text("billing_postcode"),
    billingCountry: text("billing_country"),
    poNumber: text("po_number"),
    buyerVatNumber: text("buyer_vat_number"),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    stripeCheckoutSessionId: text("stripe_checkout_session_id").unique(),
    /** The card payment, once Stripe reports it paid: what refunds are made against. */
    stripePaymentIntentId: text("stripe_payment_intent_id"),
    /**
     * When a card payment arrived for this order after it was cancelled (its buyer paid on a
     * checkout page still open): the money is here, so staff refund it from the order page.
     */
    paidAfterCancellationAt: timestamp("paid_after_cancellation_at", { withTimezone: true }),
    /**
     * When the order was paid (set by the transition to paid; orders paid earlier were dated from
     * their first 'paid' event, else their creation). What monthly revenue counts by.
     */
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** Set when held as suspected spam: no e-mails were sent until an admin releases it. */
    spamReason: spamReason("spam_reason"),
    /** When the buyer's and students' details were replaced after an erasure request. */
    anonymisedAt: timestamp("anonymised_at", { withTimezone: true }),
    /**
     * Set while staff have paused the reminders of this order's unpaid invoice (decision 0040);
     * NULL: reminders go on their days.
     */
    invoiceRemindersPausedAt: timestamp("invoice_reminders_paused_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Newest first with a tie-breaker: the Payments screen's order, so any page is an index walk.
    index("orders_created_at_id_idx").on(t.createdAt.desc(), t.id.desc()),
    index("orders_status_created_at_idx").on(t.status, t.createdAt.desc()),
    // The admin Payments screen filters by method, newest first.
    index("orders_payment_method_created_at_idx").on(t.paymentMethod, t.createdAt.desc()),
    // Revenue by the month an order was paid in (server/orders/revenue.server.ts).
    index("orders_paid_at_idx")
      .on(t.paidAt)
      .where(sql`${t.status} = 'paid'`),
    // The Payments screen's counts by status and all-time revenue, read in one pass over this
    // index alone (an index-only scan) instead of every order row (server/orders/admin.server.ts).
    index("orders_money_idx").on(
      t.status,
      t.currency,
      t.totalAmountCents,
      t.refundedAmountCents,
      t.netAmountCents,
    ),
    // A date's places taken, and the Dates screen's sold, held and revenue: its live orders
    // (server/catalogue/course-dates.server.ts). Every column those sums read is in the index, so
    // a date with thousands of bookings is summed by an index-only scan.
    index("orders_course_date_live_idx")
      .on(
        t.courseDateId,
        t.status,
        t.paymentMethod,
        t.quantity,
        t.totalAmountCents,
        t.refundedAmountCents,
      )
      .where(sql`${t.courseDateId} is not null and ${t.status} in ('pending', 'invoiced', 'paid')`),
    // The privacy search matches an address trimmed and lower-cased.
    index("orders_buyer_email_lower_idx").on(sql`lower(trim(${t.buyerEmail}))`),
    // A refund made in Stripe's dashboard names only the PaymentIntent: find its order by it.
    uniqueIndex("orders_stripe_payment_intent_id_idx")
      .on(t.stripePaymentIntentId)
      .where(sql`${t.stripePaymentIntentId} is not null`),
    check("orders_quantity_range", sql`${t.quantity} between 1 and 10`),
    check("orders_unit_price_non_negative", sql`${t.unitPriceCents} >= 0`),
    check(
      "orders_amounts_match",
      sql`${t.netAmountCents} + ${t.vatAmountCents} = ${t.totalAmountCents} and ${t.vatAmountCents} >= 0 and case when ${t.pricesIncludeVat} then ${t.totalAmountCents} else ${t.netAmountCents} end = ${t.unitPriceCents} * ${t.quantity}`,
    ),
    check(
      "orders_refund_within_total",
      sql`${t.refundedAmountCents} between 0 and ${t.totalAmountCents}`,
    ),
    check("orders_received_non_negative", sql`${t.receivedAmountCents} >= 0`),
    check("orders_currency_code", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check(
      "orders_vat_treatment",
      sql`${t.vatTreatment} in ('uk_vat', 'reverse_charge', 'outside_scope') and (${t.vatTreatment} = 'uk_vat' or ${t.vatAmountCents} = 0)`,
    ),
  ],
);

export const orderStudents = pgTable(
  "order_students",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
  },
  (t) => [
    uniqueIndex("order_students_order_position_idx").on(t.orderId, t.position),
    // The privacy search matches an address trimmed and lower-cased.
    index("order_students_email_lower_idx").on(sql`lower(trim(${t.email}))`),
  ],
);

/**
 * A date's register (decision 0035): whether each booked place's student attended, marked by
 * staff on the day. A place is the order's `position` (its student, or the buyer who attends
 * themself as position 1), so a name changed later keeps its mark. It holds no names: who the
 * student is, is read from the order (and goes with the order's erasure).
 */
export const attendanceStatus = pgEnum("attendance_status", ["present", "absent", "partial"]);

export const attendance = pgTable(
  "attendance",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    courseDateId: uuid("course_date_id")
      .notNull()
      .references(() => courseDates.id, { onDelete: "cascade" }),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    status: attendanceStatus("status").notNull(),
    /** Who marked it last: an admin's e-mail. */
    markedBy: text("marked_by").notNull(),
    markedAt: timestamp("marked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("attendance_date_place_idx").on(t.courseDateId, t.orderId, t.position),
    index("attendance_order_idx").on(t.orderId),
    check("attendance_position_range", sql`${t.position} between 1 and 10`),
  ],
);

/**
 * On-demand courses: when each place's access details (a login, a link) were sent to its student,
 * by whom, and whether by our e-mail or another way. Place as on the register (from 1; the buyer
 * attending themself is place 1); sent again, the last sending stands.
 */
export const accessDetails = pgTable(
  "access_details",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    /** An admin's e-mail. */
    sentBy: text("sent_by").notNull(),
    /** Sent by the site's own e-mail (true) or recorded as sent another way (false). */
    emailed: boolean("emailed").notNull(),
  },
  (t) => [
    uniqueIndex("access_details_order_place_idx").on(t.orderId, t.position),
    check("access_details_position_range", sql`${t.position} between 1 and 10`),
  ],
);

/**
 * A booker's request to move some or all of their order's places to another date (decision
 * 0038), made on their booking page before the change window closes and approved or declined by
 * staff from the order page. One open request per order: a new one withdraws the last.
 */
export const moveRequests = pgTable(
  "move_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    toCourseDateId: uuid("to_course_date_id")
      .notNull()
      .references(() => courseDates.id, { onDelete: "cascade" }),
    /** The places asked for (from 1). */
    places: integer("places").array().notNull(),
    /** requested, approved, declined, or withdrawn (by a later request). */
    state: text("state").notNull().default("requested"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** The admin's e-mail who approved or declined it. */
    decidedBy: text("decided_by"),
  },
  (t) => [
    uniqueIndex("move_requests_one_open_per_order_idx")
      .on(t.orderId)
      .where(sql`${t.state} = 'requested'`),
    check(
      "move_requests_state",
      sql`${t.state} in ('requested', 'approved', 'declined', 'withdrawn')`,
    ),
    check("move_requests_places", sql`cardinality(${t.places}) between 1 and 10`),
  ],
);

/** Bytes, stored as PostgreSQL bytea (a certificate's issued PDF). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Certificates of attendance (decision 0036): one per attended place of a date, issued by staff
 * after the date ends. What the certificate says is kept as issued (holder, course, dates, CPD
 * hours), with the PDF that was e-mailed and its SHA-256, so the public verification page
 * (/certificates/{number}) can say whether a file is the one issued. The number is random, not
 * sequential: the page names the holder, so numbers must not be guessable. Revoked, it stays
 * (the page says so); erased, its holder's details and PDF are cleared.
 */
export const certificates = pgTable(
  "certificates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** NWC-XXXX-XXXX-XXXX (Crockford base 32, 60 random bits). */
    number: text("number").notNull().unique(),
    courseDateId: uuid("course_date_id")
      .notNull()
      .references(() => courseDates.id, { onDelete: "restrict" }),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** The place, as on the register (from 1; the buyer attending themself is place 1). */
    position: integer("position").notNull(),
    /** Null once erased. */
    holderName: text("holder_name"),
    holderEmail: text("holder_email"),
    courseTitle: text("course_title").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    cpdHours: numeric("cpd_hours", { precision: 4, scale: 1 }),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    /** An admin's e-mail. */
    issuedBy: text("issued_by").notNull(),
    /** The PDF as issued and e-mailed; null once erased. */
    pdf: bytea("pdf"),
    /** SHA-256 of `pdf`, lower-case hex; null once erased. */
    sha256: text("sha256"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: text("revoked_by"),
    revocationReason: text("revocation_reason"),
    erasedAt: timestamp("erased_at", { withTimezone: true }),
  },
  (t) => [
    // One valid certificate per place; a revoked one may be followed by a corrected one.
    uniqueIndex("certificates_one_valid_per_place_idx")
      .on(t.courseDateId, t.orderId, t.position)
      .where(sql`${t.revokedAt} is null`),
    index("certificates_order_idx").on(t.orderId),
    // The privacy search's match (server/privacy/matching.server.ts: sameEmail).
    index("certificates_holder_email_idx").on(sql`lower(trim(${t.holderEmail}))`),
    check("certificates_position_range", sql`${t.position} between 1 and 10`),
    check(
      "certificates_revocation_complete",
      sql`(${t.revokedAt} is null) = (${t.revokedBy} is null)`,
    ),
  ],
);

/**
 * Invoices, VAT receipts and credit notes (decision 0015): issued once, never edited or deleted (a
 * trigger in migration 0007 refuses both). `snapshot` holds everything the PDF prints — seller,
 * customer, lines, amounts, due date — as it was at issue, so the PDF drawn from it years later
 * is the document that was sent. Amounts are positive; a credit note's say what it credits.
 */
export const documentKind = pgEnum("document_kind", ["invoice", "receipt", "credit_note"]);

export const orderDocuments = pgTable(
  "order_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    kind: documentKind("kind").notNull(),
    /** INV-2026-0001 (invoices and receipts share one series) or CN-2026-0001. */
    number: text("number").notNull().unique(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    netAmountCents: integer("net_amount_cents").notNull(),
    vatAmountCents: integer("vat_amount_cents").notNull(),
    totalAmountCents: integer("total_amount_cents").notNull(),
    /** A credit note's invoice or receipt. */
    creditsDocumentId: uuid("credits_document_id").references(
      (): AnyPgColumn => orderDocuments.id,
      {
        onDelete: "restrict",
      },
    ),
    reason: text("reason"),
    /**
     * An invoice or receipt issued with corrected details in place of this one, which a credit
     * note credits in the same transaction (decision 0015). The current one is the one nothing
     * replaces.
     */
    replacesDocumentId: uuid("replaces_document_id").references(
      (): AnyPgColumn => orderDocuments.id,
      { onDelete: "restrict" },
    ),
    /** Who issued it: an admin's e-mail, or 'stripe' / 'system'. */
    issuedBy: text("issued_by").notNull(),
    snapshot: jsonb("snapshot").notNull(),
  },
  (t) => [
    index("order_documents_order_id_idx").on(t.orderId, t.issuedAt),
    // The document register reads a range of issue dates, newest first.
    index("order_documents_issued_at_idx").on(t.issuedAt.desc(), t.id.desc()),
    // One first invoice (or receipt) per order, whoever clicks at the same moment; each one is
    // replaced at most once, so corrections form a single line and one is current.
    uniqueIndex("order_documents_one_invoice_per_order_idx")
      .on(t.orderId)
      .where(sql`${t.kind} in ('invoice', 'receipt') and ${t.replacesDocumentId} is null`),
    uniqueIndex("order_documents_replaced_once_idx").on(t.replacesDocumentId),
    check(
      "order_documents_replaces_invoice",
      sql`${t.replacesDocumentId} is null or ${t.kind} in ('invoice', 'receipt')`,
    ),
    check(
      "order_documents_amounts_match",
      sql`${t.netAmountCents} + ${t.vatAmountCents} = ${t.totalAmountCents} and ${t.totalAmountCents} >= 0`,
    ),
    check(
      "order_documents_credit_note_credits",
      sql`(${t.kind} = 'credit_note') = (${t.creditsDocumentId} is not null)`,
    ),
  ],
);

/**
 * Reminders of an unpaid invoice (decision 0040): one row per invoice and number of days after
 * its due date (INVOICE_REMINDER_DAYS), inserted in the transaction that queues the e-mail, so
 * each goes once however many housekeeping passes run at once.
 */
export const invoiceReminders = pgTable(
  "invoice_reminders",
  {
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => orderDocuments.id, { onDelete: "restrict" }),
    daysAfterDue: integer("days_after_due").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.invoiceId, t.daysAfterDue] }),
    check("invoice_reminders_days", sql`${t.daysAfterDue} between 0 and 365`),
  ],
);

/**
 * The last number issued in each document series and year. A number is taken by an upsert in the
 * transaction that issues the document: the row lock makes concurrent issuers wait in turn, and a
 * rolled-back issue gives its number back, so the series has no gaps and no repeats.
 */
export const documentSequences = pgTable(
  "document_sequences",
  {
    series: text("series").notNull(),
    year: integer("year").notNull(),
    lastNumber: integer("last_number").notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);

/**
 * What happened to an order, for its timeline (decision 0015): created, invoice issued, paid,
 * canceled, refunded, released, notes — with who did it. E-mails are read from the outbox.
 */
export const orderEvents = pgTable(
  "order_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** created | invoiced | paid | failed | canceled | refunded | released | note | … (free text).
     */
    kind: text("kind").notNull(),
    /** An admin's e-mail, 'buyer', 'stripe' or 'system'. */
    actor: text("actor").notNull(),
    /** A note's text, a refund's amount and reason, a document's number. */
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    // clock_timestamp(), not now(): events of one transaction keep the order they happened in.
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index("order_events_order_id_created_at_idx").on(t.orderId, t.createdAt)],
);

/**
 * Payments received against an invoice (decision 0042), one row per transfer, cheque or card
 * payment as it arrives: part payments add up to the balance, and more than the total is an
 * overpayment for staff to settle. A card payment through the invoice's "pay by card" link is
 * admitted once by its Checkout Session.
 */
export const orderPayments = pgTable(
  "order_payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    /** The UK date the money arrived (as the bank statement says). */
    receivedOn: date("received_on").notNull(),
    /** bank_transfer | card | cheque | other; transfer: moved with places to or from another order */
    method: text("method").notNull(),
    /** The bank's reference, a cheque number: what finance matches it by. */
    reference: text("reference"),
    stripeCheckoutSessionId: text("stripe_checkout_session_id").unique(),
    /** The staff form's nonce: the same form sent twice records one payment. */
    formNonce: text("form_nonce").unique(),
    /** An admin's e-mail, 'stripe' (paid through the link) or 'system'. */
    actor: text("actor").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("order_payments_order_id_idx").on(t.orderId),
    // Money moved with places split off into another order (decision 0046) is a pair of rows:
    // out of the order (negative) and into the new one; everything else is money received.
    check(
      "order_payments_amount_positive",
      sql`${t.amountCents} > 0 or (${t.method} = 'transfer' and ${t.amountCents} <> 0)`,
    ),
    check(
      "order_payments_method",
      sql`${t.method} in ('bank_transfer', 'card', 'cheque', 'other', 'transfer')`,
    ),
  ],
);

/**
 * Refunds (decision 0016), one row per refund: through Stripe (admitted once by its refund id,
 * whether the admin's request or Stripe's webhook records it first), or paid back by bank and
 * recorded by staff (decision 0042). Either way the order's refunded amount and its credit note
 * are counted once.
 */
export const orderRefunds = pgTable(
  "order_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** NULL for a refund paid outside Stripe. */
    stripeRefundId: text("stripe_refund_id").unique(),
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason"),
    /** pending | succeeded | failed | canceled, as Stripe reports it; succeeded by bank. */
    status: text("status").notNull(),
    /** stripe | bank_transfer | cheque | other */
    method: text("method").notNull().default("stripe"),
    /** A refund paid outside Stripe: the UK date it was paid and the bank's reference. */
    refundedOn: date("refunded_on"),
    reference: text("reference"),
    /** The staff form's nonce: the same form sent twice records one refund. */
    formNonce: text("form_nonce").unique(),
    creditNoteId: uuid("credit_note_id").references(() => orderDocuments.id, {
      onDelete: "restrict",
    }),
    /** An admin's e-mail, or 'stripe' for a refund made in Stripe's dashboard. */
    actor: text("actor").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("order_refunds_order_id_idx").on(t.orderId),
    check("order_refunds_amount_positive", sql`${t.amountCents} > 0`),
    check(
      "order_refunds_method",
      sql`case when ${t.method} = 'stripe' then ${t.stripeRefundId} is not null else ${t.method} in ('bank_transfer', 'cheque', 'other') and ${t.stripeRefundId} is null and ${t.refundedOn} is not null end`,
    ),
  ],
);

/**
 * Stripe webhook events already applied. The event id is the primary key and is inserted in the
 * same transaction as the event's effect, so a redelivered (or concurrently delivered) event
 * changes nothing a second time.
 */
export const stripeEvents = pgTable(
  "stripe_events",
  {
    eventId: text("event_id").primaryKey(),
    type: text("type").notNull(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    processedAt: timestamp("processed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("stripe_events_order_id_idx").on(t.orderId)],
);

export const newsletterSubscriptions = pgTable(
  "newsletter_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    source: text("source"),
    /** Consent (UK GDPR Art. 7): when it was given, on which page, and the words the form showed. */
    consentAt: timestamp("consent_at", { withTimezone: true }),
    consentPage: text("consent_page"),
    consentText: text("consent_text"),
    /** When the subscriber left through the unsubscribe link (is_active is then false). */
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    /** Set when held as suspected spam: not exported or counted until released. */
    spamReason: spamReason("spam_reason"),
    subscribedAt: timestamp("subscribed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A second sign-up with any casing raises unique-violation 23505: 'Already Subscribed'.
    uniqueIndex("newsletter_subscriptions_email_lower_idx").on(sql`lower(${t.email})`),
    // The admin list's order (newest first, id breaking ties; NULLS FIRST as ORDER BY … DESC).
    index("newsletter_subscriptions_subscribed_at_idx").on(
      t.subscribedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("newsletter_subscriptions_spam_subscribed_at_idx")
      .on(t.subscribedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.spamReason} is not null`),
  ],
);

/*
 * Outgoing e-mail. A message is a row first, written in the same transaction as the business
 * change that causes it (an inquiry, an order); the outbox worker sends it later over SMTP.
 * Delivery state stays on the row: pending → sending (claimed, lease until locked_until) → sent,
 * or back to pending with a later next_attempt_at, or failed after the last attempt.
 */
export const emailOutboxStatus = pgEnum("email_outbox_status", [
  "pending",
  "sending",
  "sent",
  "failed",
]);

export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What the message is, e.g. admin_alert, visitor_confirmation (free text: new kinds need no
     * migration). */
    kind: text("kind").notNull(),
    /** One address or a comma-separated list. */
    toAddress: text("to_address").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    status: emailOutboxStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While status is sending: after this instant another worker may take the row over. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    inquiryId: uuid("inquiry_id").references(() => inquiries.id, { onDelete: "set null" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    /** An invoice, receipt or credit note sent as a PDF attachment, drawn when the mail is sent. */
    documentId: uuid("document_id").references(() => orderDocuments.id, { onDelete: "restrict" }),
    /** A sent quote, attached as its PDF (drawn from its snapshot when the mail is sent). */
    quoteId: uuid("quote_id").references((): AnyPgColumn => quotes.id, { onDelete: "set null" }),
    /** A certificate sent as its issued PDF. */
    certificateId: uuid("certificate_id").references(() => certificates.id, {
      onDelete: "set null",
    }),
    /** Extra message headers, e.g. List-Unsubscribe on newsletter mail. */
    headers: jsonb("headers").$type<Record<string, string>>(),
    /** An iCalendar invitation (RFC 5545 text, METHOD:REQUEST or CANCEL) sent as invite.ics. */
    calendar: text("calendar"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("email_outbox_status_next_attempt_idx").on(t.status, t.nextAttemptAt),
    index("email_outbox_inquiry_id_idx").on(t.inquiryId),
    index("email_outbox_order_id_idx").on(t.orderId),
    // The per-recipient limit counts recent confirmations to one mailbox: lower-cased, without a
    // `+tag` (mailboxOf in abuse.server.ts).
    index("email_outbox_mailbox_created_at_idx").on(
      sql`regexp_replace(lower(${t.toAddress}), '\\+[^@]*@', '@')`,
      t.createdAt,
    ),
    check("email_outbox_attempts_non_negative", sql`${t.attempts} >= 0`),
  ],
);

/**
 * Fixed-window counters for per-client rate limits on public form posts, kept in the database so
 * every server instance sees the same counts. `key` is a hash (no IP address is stored).
 */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.windowStart] }),
    index("rate_limit_hits_window_start_idx").on(t.windowStart),
  ],
);

/**
 * One submission, one result (server/forms/submit-once.server.ts): each public post that creates
 * something, by its form and a hash of its submission key and content. `result` is the first
 * answer (null while it is being made), returned to a repeated post instead of creating again.
 * Kept a day.
 */
export const formSubmissions = pgTable(
  "form_submissions",
  {
    form: text("form").notNull(),
    keyHash: text("key_hash").notNull(),
    result: jsonb("result"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.form, t.keyHash] }),
    index("form_submissions_created_at_idx").on(t.createdAt),
  ],
);

/**
 * Secrets every instance must share, made once by whichever starts first (decision 0032): the
 * auth secret when BETTER_AUTH_SECRET is not set and the site runs on PostgreSQL.
 */
/**
 * The seller's details as staff set them on the Settings screen (decision 0043), one row per
 * setting, named as its environment variable and kept as typed. A setting with no row takes its
 * environment value (or its default); issued documents keep the values they were issued with.
 */
export const sellerSettingsTable = pgTable("seller_settings", {
  key: text("key").primaryKey(),
  /** As typed ('' = not set); read through the same checks as the environment's. */
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  /** The admin's e-mail. */
  updatedBy: text("updated_by").notNull(),
});

export const appSecrets = pgTable("app_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

/* Admin accounts: the four tables better-auth keeps (user, session, account, verification). */

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  /** better-auth's two-factor plugin: set once the admin has confirmed a TOTP code. */
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  /** Wrong passwords in a row; reset by a successful sign-in (per-account lockout). */
  failedSignIns: integer("failed_sign_ins").notNull().default(0),
  /** While in the future, sign-in is refused for this account whatever the password. */
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  /** Invited from the staff screen and not yet through their set-a-password link. */
  invitationPending: boolean("invitation_pending").notNull().default(false),
  /**
   * The admin created on first start, whose random password only the server's operator saw in
   * its log: the one account that turns two-factor on without an e-mailed code (decision 0029).
   */
  initialAdmin: boolean("initial_admin").notNull().default(false),
  /** When two-factor sign-in was first turned on: later set-ups need no e-mailed code. */
  twoFactorEnrolledAt: timestamp("two_factor_enrolled_at", { withTimezone: true }),
});

/** better-auth's two-factor plugin: one row per admin who has begun setting up TOTP. */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    /** The TOTP secret and the backup codes, encrypted by better-auth with the auth secret. */
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [
    index("two_factor_user_id_idx").on(t.userId),
    index("two_factor_secret_idx").on(t.secret),
  ],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /**
     * This session passed a second factor (a code from the app or a backup code) — at sign-in or
     * when turning two-factor sign-in on. The account's setting alone says nothing about a
     * session signed in before it (decision 0029).
     */
    twoFactorVerified: boolean("two_factor_verified").notNull().default(false),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

/**
 * Second-factor codes already accepted, so a code is good once (decision 0029). A code stays
 * here for as long as it could still be accepted; older rows are cleared as new ones come.
 */
export const twoFactorCodeUse = pgTable(
  "two_factor_code_use",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.code] })],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

/**
 * better-auth's sign-in rate-limit counters (one row per client address and path), kept in the
 * database so every server instance counts the same attempts. Separate from rate_limit_hits,
 * which the public forms use: better-auth reads and writes this table itself.
 */
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  /** Milliseconds since the epoch, as better-auth stores it. */
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * What admins did, and sign-ins (decisions 0017, 0019): one row per change, written in the
 * transaction of the change. Append-only: a trigger refuses UPDATE and DELETE, and no screen edits
 * it. `actor_id` is not a foreign key, so removing an admin keeps what they did (with their
 * e-mail).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    /** The admin who acted; NULL for the system (retention, webhooks) or an unknown sign-in. */
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    /** What happened, `<subject>.<verb>`, e.g. course.update, order.status, auth.sign_in_failed. */
    action: text("action").notNull(),
    /** What it happened to: course, category, partner, inquiry, order, subscription, admin, … */
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id"),
    /** A short line for the list, e.g. the course title or the order reference. */
    summary: text("summary").notNull().default(""),
    /** The changed fields before and after (only those that changed, for updates). */
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    ipAddress: text("ip_address"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at.desc(), t.id.desc()),
    index("audit_log_actor_at_idx").on(t.actorId, t.at.desc()),
    index("audit_log_action_at_idx").on(t.action, t.at.desc()),
  ],
);
