/**
 * The File Interrogator licence register (decision 0050) as the admin screens show it: states,
 * labels and rows. The rules live in server/licences/. Safe on both sides.
 */

export const LICENCE_STATES = ["active", "expiring", "expired", "renewed"] as const;
export type LicenceState = (typeof LICENCE_STATES)[number];

export const LICENCE_STATE_LABELS: Record<LicenceState, string> = {
  active: "Active",
  expiring: "Expiring",
  expired: "Expired",
  renewed: "Renewed",
};

export const LICENCE_STATE_BADGE = {
  active: "success",
  expiring: "warning",
  expired: "destructive",
  renewed: "muted",
} as const satisfies Record<LicenceState, string>;

/** A licence is "expiring" within this many days of its end (and the Dashboard lists it). */
export const LICENCE_EXPIRING_DAYS = 60;

export interface LicenceRow {
  id: string;
  reference: string;
  organisation: string;
  contactName: string;
  contactEmail: string;
  seats: number;
  startsOn: string;
  endsOn: string;
  annualNetCents: number;
  state: LicenceState;
  quote: { id: string; number: string | null } | null;
  orderId: string | null;
  renewalQuoteId: string | null;
}

/** The Dashboard's licences ending within LICENCE_EXPIRING_DAYS, not renewed. */
export interface LicencesEnding {
  items: LicenceRow[];
  count: number;
  annualNetCents: number;
}
