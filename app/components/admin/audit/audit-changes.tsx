import { auditFieldKeys, auditFieldLabel, auditValueText } from "#app/lib/admin/audit.ts";

/**
 * An audit row's recorded fields as a small two-column diff (before | after), folded in a
 * `<details>` so the list stays one line per change; it opens without JavaScript.
 */
export function AuditChanges({
  before,
  after,
}: {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}) {
  const keys = auditFieldKeys(before, after);
  if (keys.length === 0) return <span className="text-muted-foreground">—</span>;
  const fields = keys.length === 1 ? "1 field" : `${keys.length} fields`;
  return (
    <details className="group max-w-xl">
      <summary className="cursor-pointer text-sm text-primary underline-offset-4 hover:underline">
        {fields}
      </summary>
      <table className="mt-2 w-full table-fixed border-collapse text-xs">
        <thead>
          <tr className="text-left text-muted-foreground">
            <th scope="col" className="w-1/4 py-1 pr-2 font-medium">
              Field
            </th>
            <th scope="col" className="w-3/8 py-1 pr-2 font-medium">
              Before
            </th>
            <th scope="col" className="w-3/8 py-1 font-medium">
              After
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key} className="border-t align-top">
              <th scope="row" className="py-1 pr-2 text-left font-medium">
                {auditFieldLabel(key)}
              </th>
              <td className="py-1 pr-2 break-words whitespace-pre-wrap text-muted-foreground">
                {before && key in before ? auditValueText(before[key]) : "—"}
              </td>
              <td className="py-1 break-words whitespace-pre-wrap">
                {after && key in after ? auditValueText(after[key]) : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
