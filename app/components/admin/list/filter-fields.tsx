import { ukDate } from "#app/lib/admin/time.ts";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect, SelectOptions } from "#app/components/ui/select.tsx";

/**
 * The fields of an admin list's filter form. Uncontrolled, with the URL's value as default (what
 * an admin picks or types before the page hydrates is kept); the key gives them the new value
 * when the URL changes. Each field's id is `filter-{name}`.
 */

/** A select that applies at once: 'All' first (`allValue`, 'all' unless said), then `options`. */
export function FilterSelect<Value extends string>({
  name,
  label,
  value,
  options,
  labels,
  allLabel = "All",
  allValue = "all",
}: {
  name: string;
  label: string;
  /** The URL's value: one of `options`, or `allValue`. */
  value: string;
  options: readonly Value[];
  labels: Record<Value, string>;
  /** The first option, e.g. "All Types". */
  allLabel?: string;
  /** The first option's value: 'all', or '' where the URL leaves it out. */
  allValue?: string;
}) {
  const id = `filter-${name}`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} name={name} defaultValue={value} key={`${name}-${value}`}>
        <option value={allValue}>{allLabel}</option>
        <SelectOptions values={options} labels={labels} />
      </NativeSelect>
    </div>
  );
}

/** A select of `options` only, no 'All' (which of an order's dates a range applies to). */
export function FilterChoice<Value extends string>({
  name,
  label,
  value,
  options,
  labels,
}: {
  name: string;
  label: string;
  value: Value;
  options: readonly Value[];
  labels: Record<Value, string>;
}) {
  const id = `filter-${name}`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} name={name} defaultValue={value} key={`${name}-${value}`}>
        <SelectOptions values={options} labels={labels} />
      </NativeSelect>
    </div>
  );
}

/** The search box (`q`): applied with Enter or the form's button. */
export function SearchField({ value, placeholder }: { value: string; placeholder: string }) {
  return (
    <div className="grid flex-1 gap-2">
      <Label htmlFor="filter-q">Search</Label>
      <Input
        id="filter-q"
        name="q"
        type="search"
        defaultValue={value}
        key={`q-${value}`}
        placeholder={placeholder}
      />
    </div>
  );
}

/**
 * A London date range, each end typed the UK way (the URL keeps it as yyyy-MM-dd): a text field
 * rather than `<input type="date">`, whose format follows the browser's language. Applied with
 * the form's button; both ends are included.
 */
export function DateRangeFields({ from, to }: { from: string; to: string }) {
  return (
    <>
      <DateField name="from" label="From" value={from} />
      <DateField name="to" label="To" value={to} />
      <p id="filter-dates-hint" className="sr-only">
        A date as day/month/year, e.g. 31/01/2026; both dates are included.
      </p>
    </>
  );
}

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
