import { HONEYPOT_FIELD } from "#app/lib/inquiries/schemas.ts";

/**
 * The spam guard of every public form (enquiry, licence, course quote, newsletter, checkout): a
 * field people never see. Off-screen rather than display:none, which some bots skip; hidden from
 * assistive tech and out of the tab order. A post with anything in it is stored as suspected
 * spam (decision 0012).
 */
export function HoneypotField() {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
