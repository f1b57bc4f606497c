import {
  Binary,
  CalendarClock,
  FileSearch,
  FileStack,
  FileText,
  Gavel,
  Hash,
  Image,
  Layers,
  ReceiptText,
  ScanSearch,
  ShieldCheck,
  UserCheck,
  WifiOff,
} from "lucide-react";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { FeatureGrid } from "#app/components/site/feature-card.tsx";
import { LicenceQuote } from "#app/components/site/licence-quote.tsx";
import { PageHero } from "#app/components/site/page-hero.tsx";
import documentAnalysis from "#app/assets/illustrations/document-analysis.svg?no-inline";
import { Section } from "#app/components/site/section.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/file-interrogator";
import { keepFormOnFailure } from "#app/lib/forms.ts";

const PAGE_PATH = "/services/file-interrogator";

/** `?licence=1` opens the licence quote form, so the toggle also works without JavaScript. */
export function loader({ request }: Route.LoaderArgs) {
  return { licenceFormOpen: new URL(request.url).searchParams.get("licence") === "1" };
}

export const action = inquiryAction;
export const clientAction = keepFormOnFailure;

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "File Interrogator",
    // One canonical URL whether or not the licence form is open.
    path: PAGE_PATH,
    description:
      "File Interrogator: offline software that detects manipulation and hidden data in documents, images and files. Metadata, error level, hex and thumbnail analysis. Annual licences.",
  });

const FEATURES = [
  {
    icon: ScanSearch,
    title: "Metadata analysis",
    text: "Reads document properties, EXIF and XMP data to reveal the software, devices, dates and edit history behind a file.",
  },
  {
    icon: FileStack,
    title: "Many file types",
    text: "Examines PDFs, Microsoft Office documents and common image formats such as JPEG, PNG and TIFF in one tool.",
  },
  {
    icon: Layers,
    title: "Error level analysis",
    text: "Highlights regions of an image saved at different compression levels, a common sign of pasted or altered content.",
  },
  {
    icon: Binary,
    title: "Hex analysis",
    text: "Shows a file's raw bytes to uncover appended data, hidden content and signatures that do not match the file type.",
  },
  {
    icon: Image,
    title: "Thumbnail analysis",
    text: "Compares embedded thumbnails with the main image to expose changes made after a picture was taken.",
  },
  {
    icon: FileText,
    title: "Automatic reports",
    text: "Produces a clear report of every check and finding, ready to attach to a case file or share with colleagues.",
  },
  {
    icon: Hash,
    title: "File hashes",
    text: "Calculates MD5, SHA-1 and SHA-256 hashes so that you can show a file has not changed since you examined it.",
  },
  {
    icon: WifiOff,
    title: "Fully offline",
    text: "Runs entirely on your own computer. Files are never uploaded, so sensitive material stays under your control.",
  },
];

const AUDIENCES = [
  {
    icon: Gavel,
    title: "Law enforcement",
    text: "Examine documents and images seized or submitted during investigations, and record what you found in a form that supports your case.",
  },
  {
    icon: ShieldCheck,
    title: "Counter fraud teams",
    text: "Check invoices, bank statements, payslips and claim evidence for signs of forgery before money leaves the organisation.",
  },
  {
    icon: UserCheck,
    title: "KYC teams",
    text: "Spot edited identity documents and proofs of address during onboarding and periodic reviews, without sending customer data to a third party.",
  },
];

/** The hero's illustration: illustrative, no real data, names or figures. */
const ILLUSTRATION = {
  src: documentAnalysis,
  alt: "Illustration: a document under a magnifier, with flagged metadata and an error level chart",
  width: 560,
  height: 440,
};

export default function FileInterrogator({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHero
        eyebrow="File Interrogator"
        illustration={ILLUSTRATION}
        icon={FileSearch}
        title="Detect manipulation and hidden data in any file"
        lead="File Interrogator is offline software that examines documents, images and other files for signs of tampering and for data that is not visible on screen. Built for investigators and analysts who need answers they can rely on."
      >
        <a href="#licensing" className={buttonVariants({ size: "lg" })}>
          Licensing and Quotes
        </a>
        <a href="#features" className={buttonVariants({ variant: "outline", size: "lg" })}>
          See the Features
        </a>
      </PageHero>

      <Section
        id="features"
        eyebrow="Features"
        title="Everything you need to interrogate a file"
        lead="Eight complementary techniques, in one tool that never needs an internet connection."
      >
        <FeatureGrid items={FEATURES} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4" />
      </Section>

      <Section tone="muted" eyebrow="Who it is for" title="Built for people who examine evidence">
        <FeatureGrid items={AUDIENCES} className="grid gap-6 md:grid-cols-3" />
      </Section>

      <Section
        id="licensing"
        eyebrow="Licensing"
        title="Annual licences, simple payment"
        lead="File Interrogator is sold on annual licences. Request a quote and we will confirm the price for the number of licences you need; payment is made manually, by invoice, with no card details or online account required."
      >
        <ul className="mb-10 grid gap-4 text-sm sm:grid-cols-2">
          <li className="flex items-center gap-3">
            <CalendarClock aria-hidden className="size-5 shrink-0 text-primary" />
            <span>Licences run for twelve months from activation</span>
          </li>
          <li className="flex items-center gap-3">
            <ReceiptText aria-hidden className="size-5 shrink-0 text-primary" />
            <span>Paid by invoice; quotes confirmed within 2 business days</span>
          </li>
        </ul>
        <LicenceQuote
          initiallyOpen={loaderData.licenceFormOpen}
          openHref={`${PAGE_PATH}?licence=1#licence-form`}
          closeHref={`${PAGE_PATH}#licensing`}
        />
      </Section>
    </>
  );
}
