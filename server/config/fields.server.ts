import { z } from "zod";

/**
 * Field types the settings share (server/config.server.ts and its parts): an optional string
 * where an empty value means unset, as `.env` files and compose files write them.
 */

export const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();
