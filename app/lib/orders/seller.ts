/**
 * The seller's registered details as the public pages show them (decision 0015: the footer and the
 * legal pages name the legal entity as a UK business must). Read from the configuration by the
 * site layout's loader; each optional detail is shown only when it is set. Safe on both sides.
 */
export interface SellerDetails {
  legalName: string;
  addressLines: string[];
  companyNumber: string | null;
  vatNumber: string | null;
  icoNumber: string | null;
}

/** The site layout route, whose loader data carries `seller` (app/routes/site/layout.tsx). */
export const SITE_LAYOUT_ROUTE_ID = "routes/site/layout";

/** The details in the order they are read out: label (null for the name itself) and value. */
export function sellerFacts(seller: SellerDetails): { label: string | null; value: string }[] {
  const facts: { label: string | null; value: string }[] = [
    { label: null, value: seller.legalName },
  ];
  if (seller.addressLines.length) {
    facts.push({
      // Only a company has a registered office; anyone else has a business address.
      label: seller.companyNumber ? "Registered office" : "Address",
      value: seller.addressLines.join(", "),
    });
  }
  if (seller.companyNumber) facts.push({ label: "Company number", value: seller.companyNumber });
  if (seller.vatNumber) facts.push({ label: "VAT number", value: seller.vatNumber });
  if (seller.icoNumber) facts.push({ label: "ICO registration number", value: seller.icoNumber });
  return facts;
}
