import { useRouteLoaderData } from "react-router";
import { SITE_LAYOUT_ROUTE_ID, sellerFacts, type SellerDetails } from "#app/lib/orders/seller.ts";

/** The seller's details from the site layout's loader (undefined outside the site layout). */
export function useSellerDetails(): SellerDetails | undefined {
  const data = useRouteLoaderData(SITE_LAYOUT_ROUTE_ID) as { seller?: SellerDetails } | undefined;
  return data?.seller;
}

/**
 * The legal name, registered office, company, VAT and ICO numbers on one line: 'NightWatch Ltd.
 * Registered office: 1 High Street, London EC1A 1AA. Company number 01234567. …'
 */
export function SellerDetailsLine({
  seller,
  className,
}: {
  seller: SellerDetails;
  className?: string;
}) {
  return (
    <p className={className} data-testid="seller-details">
      {sellerFacts(seller).map((fact, i) => (
        <span key={i}>
          {i > 0 ? " " : null}
          {fact.label ? `${fact.label}: ` : null}
          {fact.value}
          {fact.value.endsWith(".") ? null : "."}
        </span>
      ))}
    </p>
  );
}
