import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/** The route table, written out by hand and grouped by area (public, checkout, admin, API). */
export default [
  layout("routes/site/layout.tsx", [
    // site
    index("routes/site/home.tsx"),
    route("about", "routes/site/about.tsx"),
    route("contact", "routes/site/contact.tsx"),
    route("quote", "routes/site/quote.tsx"),
    route("privacy", "routes/site/privacy.tsx"),
    route("terms", "routes/site/terms.tsx"),
    route("gdpr", "routes/site/gdpr.tsx"),
    route("newsletter", "routes/site/newsletter.tsx"),
    route("newsletter/unsubscribe", "routes/site/newsletter-unsubscribe.tsx"),
    route("training", "routes/site/training-redirect.tsx"),
    // a certificate of attendance, checked by anyone who holds its number
    route("certificates/:number", "routes/site/certificate.tsx"),
    // the booker's own page, by the signed link its e-mails carry; 'find my booking' e-mails it
    route("bookings", "routes/site/find-booking.tsx"),
    route("bookings/:token", "routes/site/booking.tsx"),
    // its documents as PDFs, and its date as a calendar file
    route("bookings/:token/documents/:documentId", "routes/site/booking-document.ts"),
    route("bookings/:token/calendar.ics", "routes/site/booking-calendar.ts"),
    // a quotation by the signed link its e-mail carries: accepted or declined there; its PDF
    route("quotes/:token", "routes/site/quotation.tsx"),
    route("quotes/:token/pdf", "routes/site/quotation-pdf.ts"),

    // services
    ...prefix("services", [
      route("dark-web-monitoring", "routes/services/dark-web-monitoring.tsx"),
      route("security-consultancy", "routes/services/security-consultancy.tsx"),
      route("file-interrogator", "routes/services/file-interrogator.tsx"),
      route("counter-fraud-training", "routes/services/counter-fraud-training.tsx"),
    ]),

    // courses
    ...prefix("courses", [
      route(":slug", "routes/courses/course.tsx"),
      route(":slug/checkout", "routes/courses/checkout.tsx"),
      route(":slug/waiting-list", "routes/courses/waiting-list.tsx"),
      route(":slug/success", "routes/courses/success.tsx"),
      route(":slug/canceled", "routes/courses/canceled.tsx"),
      // a course's generated artwork, for its card and page (SVG) and its Open Graph card (PNG)
      route(":slug/artwork.svg", "routes/courses/artwork.ts"),
      route(":slug/og.png", "routes/courses/og-image.ts"),
    ]),

    // auth (inside the site layout: /auth keeps the site header and footer)
    route("auth", "routes/auth/sign-in.tsx"),
    route("auth/forgot-password", "routes/auth/forgot-password.tsx"),
    route("auth/reset-password", "routes/auth/reset-password.tsx"),
    route("auth/unlock", "routes/auth/unlock.tsx"),

    // any other route
    route("*", "routes/site/not-found.tsx"),
  ]),

  // auth: sign-out (POST only), outside the site layout
  route("auth/sign-out", "routes/auth/sign-out.ts"),

  // search engines (plain-text resource routes, outside the site layout)
  route("sitemap.xml", "routes/seo/sitemap.tsx"),
  route("robots.txt", "routes/seo/robots.tsx"),

  // api (resource routes, outside the site layout)
  route("api/auth/*", "routes/api/auth.ts"),
  route("api/stripe/webhook", "routes/api/stripe-webhook.ts"),
  route("api/admin/media", "routes/api/admin-media.ts"),

  // admin (no site header or footer). Every admin route sits under the layout, whose middleware
  // is the admin guard (decision 0026): pages and downloads alike.
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/index.tsx"),
      route("dashboard", "routes/admin/dashboard.tsx"),
      route("inquiries", "routes/admin/inquiries.tsx"),
      route("inquiries/templates", "routes/admin/reply-templates.tsx"),
      route("inquiries/:inquiryId", "routes/admin/inquiry.tsx"),
      route("quotes", "routes/admin/quotes.tsx"),
      route("quotes/new", "routes/admin/quote-new.tsx"),
      route("quotes/:quoteId", "routes/admin/quote.tsx"),
      route("licences", "routes/admin/licences.tsx"),
      route("payments", "routes/admin/payments.tsx"),
      route("payments/:orderId", "routes/admin/order.tsx"),
      route("documents", "routes/admin/documents.tsx"),
      route("debtors", "routes/admin/debtors.tsx"),
      route("settings", "routes/admin/settings.tsx"),
      route("newsletter", "routes/admin/newsletter-redirect.tsx"),
      route("newsletter-subscriptions", "routes/admin/newsletter-subscriptions.tsx"),
      route("courses", "routes/admin/courses.tsx"),
      route("dates", "routes/admin/dates.tsx"),
      route("dates/:dateId/waiting-list", "routes/admin/date-waiting-list.tsx"),
      route("dates/:dateId/register", "routes/admin/date-register.tsx"),
      route("categories", "routes/admin/categories.tsx"),
      route("partners", "routes/admin/partners.tsx"),
      route("trainers", "routes/admin/trainers.tsx"),
      route("about", "routes/admin/about.tsx"),
      route("account", "routes/admin/account.tsx"),
      route("staff", "routes/admin/staff.tsx"),
      route("audit", "routes/admin/audit.tsx"),
      route("privacy", "routes/admin/privacy.tsx"),
      // CSV and text downloads (resource routes: no shell, the layout's guard all the same)
      route("inquiries/export", "routes/admin/inquiries-export.ts"),
      route("newsletter-subscriptions/export", "routes/admin/newsletter-export.ts"),
      route("payments/export", "routes/admin/payments-export.ts"),
      // one person's data, for a data-protection access request (JSON or CSV)
      route("privacy/export", "routes/admin/privacy-export.ts"),
      // a date's register as CSV, and its printable sign-in sheet (PDF)
      route("dates/:dateId/register/csv", "routes/admin/date-register-csv.ts"),
      route("dates/:dateId/register/sign-in-sheet", "routes/admin/date-sign-in-sheet.ts"),
      // the document register of a range: as CSV, in Xero's import layout, its PDFs as a ZIP
      route("documents/export", "routes/admin/documents-export.ts"),
      route("documents/xero", "routes/admin/documents-xero.ts"),
      route("documents/pdfs", "routes/admin/documents-pdfs.ts"),
      // an order's invoice, receipt or credit note as a PDF download
      route("payments/:orderId/documents/:documentId", "routes/admin/order-document.ts"),
      // a sent quote's PDF
      route("quotes/:quoteId/pdf", "routes/admin/quote-pdf.ts"),
      route("*", "routes/admin/not-found.tsx"),
    ]),
  ]),
] satisfies RouteConfig;
