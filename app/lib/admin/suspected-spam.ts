/**
 * Suspected spam (decision 0012): posts that look automated are stored with a reason and held —
 * no e-mails go out — until an admin releases or deletes them. Names, labels and the admin
 * screens' filter; safe on both sides.
 */

export const SPAM_REASONS = ["honeypot", "recipient_limit"] as const;
export type SpamReason = (typeof SPAM_REASONS)[number];

/** The marker's explanation on the admin screens. */
export const SPAM_REASON_LABELS: Record<SpamReason, string> = {
  honeypot: "The hidden anti-bot field was filled in",
  recipient_limit: "Too many confirmation e-mails to this address in the last hour",
};

export const SUSPECTED_SPAM_LABEL = "Suspected spam";

/** The admin lists' filter (`?spam=`): everything, only suspected spam, or none of it. */
export const SPAM_FILTERS = ["all", "only", "none"] as const;
export type SpamFilter = (typeof SPAM_FILTERS)[number];

export const SPAM_FILTER_LABELS: Record<SpamFilter, string> = {
  all: "All submissions",
  only: "Suspected spam only",
  none: "Hide suspected spam",
};

export function parseSpamFilter(value: string | null): SpamFilter {
  return value === "only" || value === "none" ? value : "all";
}
