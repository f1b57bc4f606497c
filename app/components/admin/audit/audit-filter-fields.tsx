import { DateRangeFields, FilterSelect } from "#app/components/admin/list/filter-fields.tsx";
import {
  AUDIT_KIND_LABELS,
  AUDIT_KINDS,
  SYSTEM_PERSON,
  type AuditFilters,
  type AuditPerson,
} from "#app/lib/admin/audit.ts";

/**
 * The audit log's filters: person, kind (the selects apply at once) and a London date range
 * (applied with the form's button). Uncontrolled, keyed by the URL's value, like every list.
 */
export function AuditFilterFields({
  filters,
  people,
}: {
  filters: AuditFilters;
  people: AuditPerson[];
}) {
  const personLabels: Record<string, string> = { [SYSTEM_PERSON]: "System / unknown" };
  for (const person of people) personLabels[person.id] = person.email;
  return (
    <>
      <FilterSelect
        name="person"
        label="Person"
        value={filters.person}
        options={[...people.map((p) => p.id), SYSTEM_PERSON]}
        labels={personLabels}
        allLabel="Everyone"
      />
      <FilterSelect
        name="kind"
        label="Kind"
        value={filters.kind}
        options={AUDIT_KINDS}
        labels={AUDIT_KIND_LABELS}
        allLabel="All kinds"
      />
      <DateRangeFields from={filters.from} to={filters.to} />
    </>
  );
}
