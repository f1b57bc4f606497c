import { inArray, sql } from "drizzle-orm";
import type { Database } from "./client.server.ts";
import { TZDate } from "@date-fns/tz";
import { config } from "../config.server.ts";
import { priceToPence } from "../orders/pricing.server.ts";
import { insertDemoBookings, type DemoBooking } from "./demo-bookings.server.ts";
import { categories, courseDates, coursePartners, courses } from "./schema.ts";

/**
 * Demo content for a fresh database: four categories, two partners, a set of courses that
 * exercise every public rule of the spec (statuses, partner/no partner, price/no price,
 * duration/no duration, the footer and home keyword filter), and dates to come for a few of them,
 * one nearly full and one fully booked by demo invoice requests (demo-bookings.server.ts).
 *
 * It only writes when the database holds no course, no category and no partner at all, and it
 * writes everything in one transaction, so a second call (or a call racing this one) changes
 * nothing and an interrupted seed leaves nothing behind.
 */

/** Key of the transaction-scoped advisory lock that serialises concurrent seeds. */
const SEED_LOCK_KEY = 7_301_947;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Rich-text content as an editor would store it: no whitespace between tags. */
function html(source: string): string {
  return source.replace(/>\s+</g, "><").trim();
}

type CategoryKey = "fraud" | "osint" | "cyber" | "compliance";
type PartnerKey = "cifas" | "academy";

const CATEGORY_SEED: Record<CategoryKey, typeof categories.$inferInsert> = {
  fraud: {
    name: "Fraud Prevention",
    slug: "fraud-prevention",
    description:
      "Courses on recognising, preventing and responding to fraud against organisations and their customers.",
  },
  osint: {
    name: "OSINT & Investigations",
    slug: "osint-investigations",
    description:
      "Open-source intelligence and investigation skills for counter-fraud, KYC and law enforcement teams.",
  },
  cyber: {
    name: "Cyber Security",
    slug: "cyber-security",
    description:
      "Practical security awareness and incident readiness for staff who handle sensitive data and payments.",
  },
  compliance: {
    name: "Compliance & KYC",
    slug: "compliance-kyc",
    description:
      "Data protection, customer due diligence and regulatory compliance training for frontline and specialist staff.",
  },
};

const PARTNER_SEED: Record<PartnerKey, typeof coursePartners.$inferInsert> = {
  cifas: {
    name: "Cifas",
    description:
      "Cifas is a not-for-profit fraud prevention membership organisation that shares fraud risk data and intelligence between its members across the UK public and private sectors.",
    logoUrl: null,
    websiteUrl: "https://www.cifas.org.uk",
    purchaseUrl: "https://www.cifas.org.uk/training",
    contactEmail: "training@cifas.org.uk",
  },
  academy: {
    name: "Harbourside Counter Fraud Academy",
    description:
      "An accredited UK training body delivering professional counter-fraud investigation and interviewing qualifications.",
    logoUrl: null,
    websiteUrl: "https://www.harbourside-cfa.co.uk",
    purchaseUrl: null,
    contactEmail: "enquiries@harbourside-cfa.co.uk",
  },
};

interface CourseSeed {
  slug: string;
  title: string;
  shortDescription: string;
  description: string;
  content: string;
  price: string | null;
  durationHours: number | null;
  status: "draft" | "published" | "archived";
  deliveryType: "online" | "classroom";
  groupType: "individual" | "group" | null;
  featured?: boolean;
  category: CategoryKey | null;
  partner: PartnerKey | null;
  externalLink?: string | null;
  /** Age in days when seeded; distinct per course so 'newest first' is deterministic. */
  daysAgo: number;
}

const COURSE_SEED: CourseSeed[] = [
  {
    slug: "introduction-to-counter-fraud",
    title: "Introduction to Counter Fraud",
    shortDescription:
      "A one-day grounding in how fraud happens, the UK legal framework and what every member of staff can do to stop it.",
    description:
      "This introductory course explains the main types of fraud facing UK organisations, the offences defined by the Fraud Act 2006 and the practical controls that prevent, detect and deter fraud. It suits new counter-fraud staff, managers and anyone who handles payments or customer data.",
    content: html(`
      <h2>Course overview</h2>
      <p>Fraud is the most commonly experienced crime in England and Wales. This course gives
      delegates a clear, practical understanding of <strong>how fraud works</strong>, how the law
      defines it and how organisations can build a counter-fraud culture.</p>
      <h3>What you will learn</h3>
      <ul>
        <li>The three main offences under the <strong>Fraud Act 2006</strong>: false representation, failing to disclose information and abuse of position</li>
        <li>The fraud triangle: pressure, opportunity and rationalisation</li>
        <li>Common external threats, including impersonation, mandate fraud and account takeover</li>
        <li>Red flags in documents, payments and customer behaviour</li>
        <li>How and when to escalate a concern internally</li>
      </ul>
      <h3>Reporting fraud in the UK</h3>
      <p>We explain the role of <a href="https://www.actionfraud.police.uk">Action Fraud</a>, the national
      reporting centre for fraud and cyber crime in England, Wales and Northern Ireland, and how
      reporting differs in Scotland, where reports go to Police Scotland.</p>
      <p><em>No prior knowledge is needed. Delegates receive a certificate of attendance.</em></p>
    `),
    price: "295.00",
    durationHours: 7,
    status: "published",
    deliveryType: "online",
    groupType: "individual",
    featured: true,
    category: "fraud",
    partner: null,
    daysAgo: 3,
  },
  {
    slug: "osint-investigations-masterclass",
    title: "OSINT Investigations Masterclass",
    shortDescription:
      "A two-day hands-on masterclass in lawful, well-documented open-source intelligence gathering for investigators.",
    description:
      "Delegates learn a structured method for collecting, verifying and recording open-source information about people, companies and online identities, with a strong emphasis on legality, operational security and evidential standards.",
    content: html(`
      <h2>Course overview</h2>
      <p>Open-source intelligence (OSINT) can transform a fraud investigation, but only if it is
      gathered lawfully, proportionately and in a way that will stand up to scrutiny.</p>
      <h3>Modules</h3>
      <ol>
        <li>Planning an OSINT task: objectives, scope and proportionality</li>
        <li>Operational security and attribution management</li>
        <li>Company, property and insolvency records (Companies House, HM Land Registry, The Gazette)</li>
        <li>Social media and online identity research</li>
        <li>Image and document verification</li>
        <li>Recording, exhibiting and reporting findings</li>
      </ol>
      <h3>Legal and ethical boundaries</h3>
      <p>We cover the <strong>UK GDPR</strong> and Data Protection Act 2018 as they apply to
      investigations, the limits set by the <strong>Computer Misuse Act 1990</strong>, and why public
      authorities must consider whether repeated, systematic viewing of an individual's online
      profile requires authorisation under the Regulation of Investigatory Powers Act 2000.</p>
      <p><em>Delegates should bring a laptop; a research environment is provided on the day.</em></p>
    `),
    price: "1450.00",
    durationHours: 14,
    status: "published",
    deliveryType: "classroom",
    groupType: "group",
    category: "osint",
    partner: null,
    daysAgo: 6,
  },
  {
    slug: "dark-web-investigations-for-fraud-teams",
    title: "Dark Web Investigations for Fraud Teams",
    shortDescription:
      "Understand how stolen data and fraud services are traded on the dark web and how to use that intelligence safely.",
    description:
      "This course explains how criminal marketplaces and forums operate, what compromised data looks like when it appears for sale, and how fraud teams can turn dark web intelligence into practical protective action without putting themselves or their organisation at risk.",
    content: html(`
      <h2>Course overview</h2>
      <p>Compromised credentials, card data and identity documents are routinely traded on
      dark web marketplaces and encrypted messaging channels. Knowing what is being traded
      helps fraud teams act <strong>before</strong> losses occur.</p>
      <h3>Topics</h3>
      <ul>
        <li>How Tor hidden services, marketplaces and forums are organised</li>
        <li>Fraud-as-a-service: phishing kits, bank drops and "fullz"</li>
        <li>Recognising your organisation's data in a leak</li>
        <li>Safe, lawful observation: why we <strong>never</strong> purchase data or engage with sellers</li>
        <li>Turning findings into protective measures and customer notifications</li>
      </ul>
      <h3>Legal considerations</h3>
      <p>We discuss the money laundering offences in Part 7 of the <strong>Proceeds of Crime Act
      2002</strong>, data protection duties under the UK GDPR when handling leaked personal data,
      and when to involve law enforcement.</p>
    `),
    price: "895.00",
    durationHours: 7,
    status: "published",
    deliveryType: "online",
    groupType: "group",
    category: "osint",
    partner: null,
    daysAgo: 10,
  },
  {
    slug: "security-awareness-for-financial-services",
    title: "Security Awareness for Financial Services",
    shortDescription:
      "A short, practical session helping staff at regulated firms recognise social engineering, phishing and payment diversion.",
    description:
      "Designed for staff at banks, building societies, lenders and payment firms, this session covers the attacks that most often lead to fraud losses and data breaches, and the simple habits that stop them.",
    content: html(`
      <h2>Why this matters</h2>
      <p>FCA-regulated firms are required to maintain systems and controls that counter the
      risk of being used to further financial crime. Well-trained staff are one of the most
      effective of those controls.</p>
      <h3>Session content</h3>
      <ul>
        <li>Phishing, smishing and vishing: how attackers build credibility</li>
        <li>Authorised push payment scams and how to spot a customer under pressure</li>
        <li>Invoice and mandate fraud targeting the firm itself</li>
        <li>Password hygiene, multi-factor authentication and device security</li>
        <li>Reporting a suspected incident quickly and without blame</li>
      </ul>
      <p>The session can be tailored to your firm's own procedures and escalation routes.</p>
    `),
    price: "395.00",
    durationHours: 3,
    status: "published",
    deliveryType: "online",
    groupType: "group",
    category: "cyber",
    partner: null,
    daysAgo: 14,
  },
  {
    slug: "insider-fraud-detection",
    title: "Insider Fraud Detection",
    shortDescription:
      "How to identify, investigate and prevent fraud committed by employees, contractors and other insiders.",
    description:
      "Insider fraud is often hard to detect and damaging when discovered. This classroom course examines common insider fraud patterns, the warning signs, and how to build proportionate controls and a fair investigation process.",
    content: html(`
      <h2>Course overview</h2>
      <p>Insiders know where controls are weakest. This course helps managers, HR and
      counter-fraud professionals recognise insider risk and respond proportionately.</p>
      <h3>What we cover</h3>
      <ul>
        <li>Typologies: payroll and expenses fraud, procurement fraud, data theft and collusion</li>
        <li>Behavioural and transactional warning signs</li>
        <li>Pre-employment screening and ongoing vetting</li>
        <li>Abuse of position under section 4 of the <strong>Fraud Act 2006</strong></li>
        <li>Running a fair internal investigation and working with HR and legal teams</li>
        <li>Monitoring staff lawfully under the <strong>UK GDPR</strong></li>
      </ul>
      <p><em>Pricing depends on group size and location; please contact us for a quote.</em></p>
    `),
    price: null,
    durationHours: 7,
    status: "published",
    deliveryType: "classroom",
    groupType: "group",
    category: "fraud",
    partner: null,
    daysAgo: 18,
  },
  {
    slug: "failure-to-prevent-fraud-offence",
    title: "Failure to Prevent Fraud: Preparing for the New Offence",
    shortDescription:
      "What the failure to prevent fraud offence means for large organisations and how to evidence reasonable prevention procedures.",
    description:
      "A briefing for senior managers, compliance and risk teams on the corporate offence of failure to prevent fraud introduced by the Economic Crime and Corporate Transparency Act 2023, and on building a defensible fraud risk assessment and prevention framework.",
    content: html(`
      <h2>The offence</h2>
      <p>The <strong>Economic Crime and Corporate Transparency Act 2023</strong> created a corporate
      offence of <em>failure to prevent fraud</em>. A large organisation can be liable where an
      associated person, such as an employee, agent or subsidiary, commits a specified fraud
      offence intending to benefit the organisation or its clients.</p>
      <p>The only defence is that the organisation had <strong>reasonable fraud prevention
      procedures</strong> in place, or that it was reasonable not to have them.</p>
      <h3>Course content</h3>
      <ul>
        <li>Which organisations are in scope and what counts as an associated person</li>
        <li>The base fraud offences, including those in the Fraud Act 2006</li>
        <li>The principles in the Home Office guidance: top-level commitment, risk assessment, proportionate procedures, due diligence, communication and training, monitoring and review</li>
        <li>Conducting and documenting a fraud risk assessment</li>
        <li>Evidencing your procedures to the board and to auditors</li>
      </ul>
      <p>Read the Act on <a href="https://www.legislation.gov.uk/ukpga/2023/56/contents">legislation.gov.uk</a>.</p>
    `),
    price: "495.00",
    durationHours: null,
    status: "published",
    deliveryType: "online",
    groupType: "individual",
    category: "fraud",
    partner: null,
    daysAgo: 22,
  },
  {
    slug: "social-engineering-red-flags-for-contact-centres",
    title: "Social Engineering Red Flags for Contact Centres",
    shortDescription:
      "Helps contact centre agents spot impersonation, account takeover attempts and vulnerable customers under coercion.",
    description:
      "Contact centres are a frequent target for fraudsters attempting to take over accounts or change customer details. This course gives agents the confidence to challenge suspicious callers while treating genuine customers fairly.",
    content: html(`
      <h2>Course overview</h2>
      <p>Fraudsters often gather personal details elsewhere and then call a contact centre to
      pass security checks. Agents are the last line of defence.</p>
      <h3>Key skills</h3>
      <ul>
        <li>Recognising scripted callers, pressure tactics and inconsistent answers</li>
        <li>Handling requests to change contact details, add payees or reissue cards</li>
        <li>Spotting signs that a genuine customer is being coached by a scammer</li>
        <li>Supporting vulnerable customers in line with the FCA's <strong>Consumer Duty</strong></li>
        <li>Recording and escalating concerns</li>
      </ul>
      <p>Includes call-listening exercises based on anonymised scenarios.</p>
    `),
    price: "345.00",
    durationHours: 3,
    status: "published",
    deliveryType: "online",
    groupType: "group",
    category: "fraud",
    partner: null,
    daysAgo: 26,
  },
  {
    slug: "data-protection-essentials-for-frontline-staff",
    title: "Data Protection Essentials for Frontline Staff",
    shortDescription:
      "The core principles of the UK GDPR explained for staff who handle customer personal data every day.",
    description:
      "A plain-English introduction to data protection law for frontline teams: what personal data is, the principles for handling it, individuals' rights and what to do when something goes wrong.",
    content: html(`
      <h2>Course overview</h2>
      <p>Every organisation that handles personal data must comply with the <strong>UK GDPR</strong>
      and the Data Protection Act 2018. This course explains what that means day to day.</p>
      <h3>Topics</h3>
      <ul>
        <li>Personal data and special category data</li>
        <li>The data protection principles, including data minimisation and storage limitation</li>
        <li>Subject access requests and other individual rights</li>
        <li>Sharing data safely, including for fraud prevention purposes</li>
        <li>Recognising a personal data breach: a notifiable breach must be reported to the ICO within 72 hours of becoming aware of it, where feasible</li>
      </ul>
      <p>Guidance from the <a href="https://ico.org.uk">Information Commissioner's Office</a> is referenced throughout.</p>
    `),
    price: "295.00",
    durationHours: 3,
    status: "published",
    deliveryType: "online",
    groupType: "individual",
    category: "compliance",
    partner: null,
    daysAgo: 30,
  },
  {
    slug: "ransomware-response-planning",
    title: "Ransomware Response Planning",
    shortDescription:
      "Prepare your organisation to respond calmly and effectively to a ransomware incident.",
    description:
      "A tabletop-based course that helps small and medium-sized organisations build and test a ransomware response plan, covering roles, communications, backups and regulatory notifications.",
    content: html(`
      <h2>Course overview</h2>
      <p>A ransomware incident tests every part of an organisation. Planning in advance
      shortens recovery and reduces harm.</p>
      <h3>You will practise</h3>
      <ul>
        <li>Agreeing roles and decision-making authority before an incident</li>
        <li>Isolating affected systems and preserving evidence</li>
        <li>Restoring from backups and verifying their integrity</li>
        <li>Notifying the ICO and affected individuals where required under the UK GDPR</li>
        <li>Reporting to Action Fraud and working with the National Cyber Security Centre's guidance</li>
      </ul>
      <p><em>Delivered in the classroom as a facilitated tabletop exercise.</em></p>
    `),
    price: "650.00",
    durationHours: 7,
    status: "published",
    deliveryType: "classroom",
    groupType: "group",
    category: "cyber",
    partner: null,
    daysAgo: 34,
  },
  {
    slug: "advanced-fraud-analytics",
    title: "Advanced Fraud Analytics",
    shortDescription:
      "Using data analysis to find anomalies, networks and fraud patterns in transactional data.",
    description:
      "A draft course on analytical techniques for counter-fraud teams, from rules and anomaly detection to network analysis. Not yet open for booking.",
    content: html(`
      <h2>Course overview</h2>
      <p>This course is in development. It will cover rules-based detection, anomaly
      detection, link and network analysis and how to measure the performance of fraud
      controls.</p>
    `),
    price: "750.00",
    durationHours: 14,
    status: "draft",
    deliveryType: "online",
    groupType: "individual",
    category: "fraud",
    partner: null,
    daysAgo: 1,
  },
  {
    slug: "osint-foundations-legacy",
    title: "OSINT Foundations (Legacy Edition)",
    shortDescription:
      "The previous edition of our introductory OSINT course, replaced by the OSINT Investigations Masterclass.",
    description:
      "This edition has been retired. Please see the OSINT Investigations Masterclass for current open-source intelligence training.",
    content: html(`
      <h2>Course retired</h2>
      <p>This course has been replaced by the <strong>OSINT Investigations Masterclass</strong>.</p>
    `),
    price: "395.00",
    durationHours: 7,
    status: "archived",
    deliveryType: "online",
    groupType: null,
    category: "osint",
    partner: null,
    daysAgo: 2,
  },
  {
    slug: "cifas-fraud-prevention-essentials",
    title: "Cifas Fraud Prevention Essentials",
    shortDescription:
      "Delivered in partnership with Cifas: the essentials of identity fraud, account takeover and data sharing for fraud prevention.",
    description:
      "An online course delivered with Cifas covering the fraud risks organisations face from identity crime and account takeover, and how sharing fraud risk data between organisations helps prevent them.",
    content: html(`
      <h2>Course overview</h2>
      <p>Identity fraud is one of the most common fraud types recorded in the UK. This course,
      delivered in partnership with <strong>Cifas</strong>, explains how identity crime works and
      how organisations can protect themselves and their customers.</p>
      <h3>Topics</h3>
      <ul>
        <li>Identity theft, impersonation and synthetic identities</li>
        <li>Facility takeover and account takeover</li>
        <li>Misuse of facility and money mule activity</li>
        <li>Sharing fraud risk data lawfully under the UK GDPR</li>
        <li>Protecting victims of identity fraud</li>
      </ul>
      <p>Booking and payment are handled by Cifas.</p>
    `),
    price: "450.00",
    durationHours: 7,
    status: "published",
    deliveryType: "online",
    groupType: "individual",
    category: "fraud",
    partner: "cifas",
    externalLink: "https://www.cifas.org.uk/training",
    daysAgo: 8,
  },
  {
    slug: "cifas-internal-fraud-awareness",
    title: "Cifas Internal Fraud Awareness",
    shortDescription:
      "A Cifas partnership course for HR and line managers on preventing and responding to internal fraud.",
    description:
      "Delivered with Cifas, this course helps HR professionals and line managers understand internal fraud risks, pre-employment screening and how to respond when dishonest conduct is suspected.",
    content: html(`
      <h2>Course overview</h2>
      <p>Internal fraud damages finances, morale and reputation. This course, delivered with
      <strong>Cifas</strong>, focuses on prevention through good recruitment and management
      practice.</p>
      <ul>
        <li>Common forms of dishonest conduct by staff</li>
        <li>Pre-employment screening and verifying identity and right to work</li>
        <li>Creating a culture where concerns are raised early</li>
        <li>Responding fairly and lawfully when fraud is suspected</li>
      </ul>
      <p><em>Pricing is available from Cifas on request.</em></p>
    `),
    price: null,
    durationHours: null,
    status: "published",
    deliveryType: "online",
    groupType: "group",
    category: "compliance",
    partner: "cifas",
    daysAgo: 16,
  },
  {
    slug: "certificate-in-fraud-investigation-interviewing",
    title: "Certificate in Fraud Investigation Interviewing",
    shortDescription:
      "An accredited two-day classroom course in planning and conducting fair, effective investigative interviews.",
    description:
      "Delivered by Harbourside Counter Fraud Academy, this course teaches the PEACE model of investigative interviewing and how to plan, conduct and record interviews in fraud investigations.",
    content: html(`
      <h2>Course overview</h2>
      <p>Good interviewing is central to a fair and effective fraud investigation. This
      accredited course teaches the <strong>PEACE</strong> framework used widely in UK
      investigations.</p>
      <h3>Modules</h3>
      <ol>
        <li>Planning and preparation</li>
        <li>Engage and explain</li>
        <li>Account, clarification and challenge</li>
        <li>Closure</li>
        <li>Evaluation</li>
      </ol>
      <p>We also cover the relevance of the <strong>Police and Criminal Evidence Act 1984</strong>
      codes of practice to interviews conducted by non-police investigators, and the disclosure
      and record-keeping expectations that follow.</p>
      <p>Booking is handled by Harbourside Counter Fraud Academy.</p>
    `),
    price: "1150.00",
    durationHours: 14,
    status: "published",
    deliveryType: "classroom",
    groupType: "individual",
    category: "fraud",
    partner: "academy",
    externalLink: "https://www.harbourside-cfa.co.uk/courses/fraud-investigation-interviewing",
    daysAgo: 12,
  },
];

export async function seedDemoContent(db: Database): Promise<{ seeded: boolean }> {
  return db.transaction(async (tx) => {
    // Serialise concurrent seeds: the second waits, then sees the first one's rows.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);

    const [anyCourse] = await tx.select({ id: courses.id }).from(courses).limit(1);
    const [anyCategory] = await tx.select({ id: categories.id }).from(categories).limit(1);
    const [anyPartner] = await tx.select({ id: coursePartners.id }).from(coursePartners).limit(1);
    if (anyCourse || anyCategory || anyPartner) return { seeded: false };

    const now = Date.now();
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);

    const categoryIds = {} as Record<CategoryKey, string>;
    const categoryKeys = Object.keys(CATEGORY_SEED) as CategoryKey[];
    for (const [i, key] of categoryKeys.entries()) {
      const [row] = await tx
        .insert(categories)
        .values({ ...CATEGORY_SEED[key], createdAt: at(60 - i) })
        .returning({ id: categories.id });
      categoryIds[key] = row!.id;
    }

    const partnerIds = {} as Record<PartnerKey, string>;
    const partnerKeys = Object.keys(PARTNER_SEED) as PartnerKey[];
    for (const [i, key] of partnerKeys.entries()) {
      const [row] = await tx
        .insert(coursePartners)
        .values({ ...PARTNER_SEED[key], createdAt: at(50 - i) })
        .returning({ id: coursePartners.id });
      partnerIds[key] = row!.id;
    }

    await tx.insert(courses).values(
      COURSE_SEED.map(({ category, partner, daysAgo, featured, externalLink, ...course }) => {
        const createdAt = at(daysAgo);
        return {
          ...course,
          featured: featured ?? false,
          externalLink: externalLink ?? null,
          thumbnailUrl: null,
          categoryId: category ? categoryIds[category] : null,
          partnerId: partner ? partnerIds[partner] : null,
          createdAt,
          updatedAt: createdAt,
        };
      }),
    );

    // Dates to come for a few courses (decision 0033), so a newcomer sees dates and places left.
    const seeded = await tx
      .select({ id: courses.id, slug: courses.slug, title: courses.title, price: courses.price })
      .from(courses)
      .where(
        inArray(
          courses.slug,
          DATE_SEED.map((d) => d.slug),
        ),
      );
    const courseBySlug = new Map(seeded.map((c) => [c.slug, c]));
    for (const [index, { slug, inDays, from, to, bookings, ...date }] of DATE_SEED.entries()) {
      const course = courseBySlug.get(slug);
      if (!course) continue;
      const startsAt = ukTime(now, inDays, from);
      const [row] = await tx
        .insert(courseDates)
        .values({
          ...date,
          courseId: course.id,
          startsAt,
          endsAt: ukTime(now, inDays, to),
          bookingClosesAt: startsAt,
        })
        .returning({ id: courseDates.id });
      const unitPriceCents = priceToPence(course.price);
      if (bookings && unitPriceCents !== null) {
        const target = {
          id: row!.id,
          courseId: course.id,
          courseTitle: course.title,
          unitPriceCents,
        };
        // Each date's bookings an hour apart from the last date's, so no two orders share a time
        // and the lists show them in the same order on every install.
        const placedAt = (daysAgo: number) => new Date(at(daysAgo).getTime() - index * 3_600_000);
        await insertDemoBookings(tx, target, bookings, config.seller.vat, placedAt);
      }
    }

    return { seeded: true };
  });
}

/** A UK wall-clock time ('09:30') `inDays` days after `now`, as the instant it is then. */
function ukTime(now: number, inDays: number, time: string): Date {
  const day = new TZDate(now + inDays * DAY_MS, "Europe/London");
  const [hours, minutes] = time.split(":").map(Number);
  return new Date(
    new TZDate(
      day.getFullYear(),
      day.getMonth(),
      day.getDate(),
      hours!,
      minutes!,
      "Europe/London",
    ).getTime(),
  );
}

/** The demo dates: classroom days in London and Manchester and live online sessions. */
const DATE_SEED: {
  slug: string;
  inDays: number;
  from: string;
  to: string;
  format: "classroom" | "online";
  capacity: number;
  venueName?: string;
  venueTown?: string;
  venueAddress?: string;
  joiningDetails?: string;
  /** Its demo bookings (server/db/demo-bookings.server.ts): one date nearly full, one full. */
  bookings?: DemoBooking[];
}[] = [
  {
    slug: "ransomware-response-planning",
    inDays: 24,
    from: "09:30",
    to: "16:30",
    format: "classroom",
    capacity: 12,
    venueName: "NightWatch Training Suite",
    venueTown: "London",
    venueAddress: "1 Example Street, London EC1A 1AA",
    bookings: [
      {
        organisation: "Northgate Building Society",
        buyer: { firstName: "Helen", lastName: "Marsh" },
        places: 6,
        poNumber: "PO-48213",
      },
      {
        organisation: "Riverside Police Economic Crime Unit",
        buyer: { firstName: "Tom", lastName: "Ashby" },
        places: 4,
      },
    ],
  },
  {
    slug: "ransomware-response-planning",
    inDays: 52,
    from: "09:30",
    to: "16:30",
    format: "classroom",
    capacity: 12,
    venueName: "Manchester Conference Centre",
    venueTown: "Manchester",
    venueAddress: "2 Example Road, Manchester M1 1AA",
  },
  {
    slug: "dark-web-investigations-for-fraud-teams",
    inDays: 17,
    from: "09:30",
    to: "16:30",
    format: "online",
    capacity: 16,
    joiningDetails: "A Microsoft Teams link is sent to each student a week before the session.",
  },
  {
    slug: "security-awareness-for-financial-services",
    inDays: 10,
    from: "10:00",
    to: "13:00",
    format: "online",
    capacity: 12,
    joiningDetails: "A Microsoft Teams link is sent to each student a week before the session.",
    bookings: [
      {
        organisation: "Harbour Bank plc",
        buyer: { firstName: "Priya", lastName: "Raman" },
        places: 8,
        poNumber: "HB-2026-0917",
      },
      {
        organisation: "Westmoor Credit Union",
        buyer: { firstName: "Owen", lastName: "Price" },
        places: 4,
      },
    ],
  },
];
