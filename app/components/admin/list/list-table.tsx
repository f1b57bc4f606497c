import type { ReactNode } from "react";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { cn } from "#app/lib/ui/cn.ts";

/**
 * An admin list's table: columns that show from a screen width up and, when `stacked`, rows that
 * become cards below md (each cell a line with its column's name), so a phone never scrolls
 * sideways. The list screens' frame (admin-list-page.tsx) and the licence register use it.
 */

/** One column: its header, its cell, and where it shows. */
export interface AdminListColumn<Item> {
  header: string;
  cell: (item: Item) => ReactNode;
  /** Shown from this screen width up (header and cells); always when unset. */
  from?: "sm" | "md" | "lg" | "xl";
  /** Classes of the cells only. */
  className?: string;
  /** Header and cells on the right (row actions). */
  alignEnd?: boolean;
}

const SHOWN_FROM = {
  sm: "hidden sm:table-cell",
  md: "hidden md:table-cell",
  lg: "hidden lg:table-cell",
  xl: "hidden xl:table-cell",
} as const;

/** A column's header and cells show from the same width and align alike. */
function columnClass(
  column: Pick<AdminListColumn<unknown>, "from" | "alignEnd" | "className">,
  part: "header" | "cell",
  stacked = false,
) {
  // Stacked rows are cards below md: a column shown "from" some width shows from md.
  const from = column.from && (stacked ? SHOWN_FROM.md : SHOWN_FROM[column.from]);
  return part === "header"
    ? cn(from, column.alignEnd && "text-right")
    : cn(
        from,
        column.alignEnd && "text-right whitespace-nowrap",
        column.className,
        stacked && STACKED_CELL,
      );
}

/*
 * Below md a stacked table is a list of cards: each row a block, each cell a line with its
 * column's name beside it (the header row is hidden), so a phone never scrolls sideways.
 */
const STACKED_TABLE = "max-md:block";
const STACKED_HEADER = "max-md:hidden";
const STACKED_BODY = "max-md:block";
const STACKED_ROW = "max-md:block max-md:py-3";
const STACKED_CELL =
  "max-md:grid max-md:grid-cols-[5.5rem_minmax(0,1fr)] max-md:items-start max-md:gap-3 max-md:px-4 max-md:py-1 max-md:text-left max-md:whitespace-normal";

export function ListTable<Item extends { id: string }>(props: {
  /** The table's accessible name, e.g. "Inquiries". */
  label: string;
  columns: readonly AdminListColumn<Item>[];
  items: readonly Item[];
  /** Below md, show each row as a card (cells stacked, each with its column's name). */
  stacked?: boolean;
  rowAttributes?: (item: Item) => Record<`data-${string}`, string>;
}) {
  const stacked = props.stacked ?? false;
  return (
    <Table aria-label={props.label} className={cn(stacked && STACKED_TABLE)}>
      <TableHeader className={cn(stacked && STACKED_HEADER)}>
        <TableRow>
          {props.columns.map((column) => (
            <TableHead key={column.header} className={columnClass(column, "header")}>
              {column.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody className={cn(stacked && STACKED_BODY)}>
        {props.items.map((item) => (
          <TableRow
            key={item.id}
            className={cn(stacked && STACKED_ROW)}
            {...props.rowAttributes?.(item)}
          >
            {props.columns.map((column) => (
              <TableCell key={column.header} className={columnClass(column, "cell", stacked)}>
                {stacked ? (
                  <>
                    <span className="text-xs font-medium text-muted-foreground md:hidden">
                      {column.header}
                    </span>
                    <div className="min-w-0 max-md:break-words">{column.cell(item)}</div>
                  </>
                ) : (
                  column.cell(item)
                )}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
