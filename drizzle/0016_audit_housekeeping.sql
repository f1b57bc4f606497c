-- The audit log stays append-only, with two controlled exceptions, each in a transaction that
-- says so with set_config(…, 'on', true):
-- - an erasure (nightwatch.erasure) may redact a row's summary and values (migration 0015);
-- - housekeeping (nightwatch.housekeeping) may delete failed sign-ins nobody was signed in for
--   (an unknown or mistyped address: no actor), once older than the retention period.
CREATE OR REPLACE FUNCTION "audit_log_is_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND coalesce(current_setting('nightwatch.erasure', true), '') = 'on'
     AND NEW."id" = OLD."id"
     AND NEW."at" = OLD."at"
     AND NEW."actor_id" IS NOT DISTINCT FROM OLD."actor_id"
     AND NEW."actor_email" IS NOT DISTINCT FROM OLD."actor_email"
     AND NEW."action" = OLD."action"
     AND NEW."subject_type" = OLD."subject_type"
     AND NEW."subject_id" IS NOT DISTINCT FROM OLD."subject_id"
     AND NEW."ip_address" IS NOT DISTINCT FROM OLD."ip_address" THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE'
     AND coalesce(current_setting('nightwatch.housekeeping', true), '') = 'on'
     AND OLD."action" = 'auth.sign_in_failed'
     AND OLD."actor_id" IS NULL THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log rows cannot be changed or deleted'
    USING ERRCODE = 'restrict_violation';
END;
$$;
