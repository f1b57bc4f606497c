import { z } from "zod/mini";
import {
  checkbox,
  optionalEmail,
  optionalImage,
  optionalText,
  optionalUrl,
  requiredText,
} from "../admin-form.ts";

/** The admin partner form (docs/rules.md, Catalogue and courses). */

export const PARTNER_NAME_REQUIRED = "Please enter the partner's name";

export const partnerFormSchema = z.object({
  name: requiredText(200, PARTNER_NAME_REQUIRED),
  description: optionalText(2000),
  website_url: optionalUrl(),
  purchase_url: optionalUrl(),
  contact_email: optionalEmail(),
  logo: optionalImage,
  remove_logo: checkbox,
});

export type PartnerFormValues = z.output<typeof partnerFormSchema>;

export interface AdminPartner {
  id: string;
  name: string;
  description: string | null;
  logoUrl: string | null;
  websiteUrl: string | null;
  purchaseUrl: string | null;
  contactEmail: string | null;
  createdAt: Date;
}
