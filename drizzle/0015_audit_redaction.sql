-- The audit log stays append-only, with one controlled exception: an erasure (UK GDPR Art. 17)
-- may redact the summary and the before/after values of rows that name the person, in its own
-- transaction, which says so with set_config('nightwatch.erasure', 'on', true) and writes its
-- own audit row. Nothing else of a row may change, and no row may be deleted.
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
  RAISE EXCEPTION 'audit_log rows cannot be changed or deleted'
    USING ERRCODE = 'restrict_violation';
END;
$$;
