import { FilterSelect } from "#app/components/admin/list/filter-fields.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import {
  AUDIT_KIND_LABELS,
  AUDIT_KINDS,
  SYSTEM_PERSON,
  type AuditFilters,
  type AuditPerson,
  ukDate,
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
      <DateField name="from" label="From" value={filters.from} />
      <DateField name="to" label="To" value={filters.to} />
      <p id="filter-dates-hint" className="sr-only">
        A date as day/month/year, e.g. 31/01/2026; both dates are included.
      </p>
    </>
  );
}

/** A London calendar date, typed the UK way (the URL keeps it as yyyy-MM-dd). */
function DateField({ name, label, value }: { name: string; label: string; value: string }) {
  const id = `filter-${name}`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        name={name}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="dd/mm/yyyy"
        aria-describedby="filter-dates-hint"
        defaultValue={ukDate(value)}
        key={`${name}-${value}`}
      />
    </div>
  );
}
