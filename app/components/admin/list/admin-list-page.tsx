import { Search } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link, useNavigate } from "react-router";
import { AdminPageHeader, Pagination } from "#app/components/admin/admin-ui.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import type { AdminList } from "#app/lib/admin/list.ts";
import { ListTable, type AdminListColumn } from "./list-table.tsx";

export type { AdminListColumn } from "./list-table.tsx";

/**
 * The frame the Inquiries, Payments and Newsletter screens share: heading and buttons, the
 * summary, the filter form (a GET form: the filters live in the URL), the table or its empty
 * state, and the pages. Each screen supplies its columns, its filter fields and its row actions;
 * a list that cannot be loaded makes the loader throw, and the admin layout's error boundary
 * shows the screen's toast.
 */

/** Filters as a list screen reads them from its URL: the page, and whatever else it filters on. */
interface ListFilters {
  page: number;
}

export function AdminListPage<Item extends { id: string }, Filters extends ListFilters>(props: {
  /** The screen's path, e.g. "/admin/inquiries". */
  path: string;
  title: string;
  description: string;
  /** Header buttons (export, refresh). */
  actions?: ReactNode;
  /** Stat cards and what goes with them, above the filters. */
  summary: ReactNode;
  list: AdminList<Item>;
  filters: Filters;
  /** The URL's filters, as the loader reads them. */
  parseFilters: (params: URLSearchParams) => Filters;
  /** The query string of some filters ('' for none), defaults left out. */
  filtersQuery: (filters: Partial<Filters>) => string;
  /** The filter form's accessible name, e.g. "Filter inquiries". */
  filterLabel: string;
  /** The form's grid, sized for its fields. */
  filterClassName: string;
  /** The filter fields (`FilterSelect`, `SpamFilterSelect`, `SearchField`). */
  filterFields: ReactNode;
  /** The filter form's button: "Apply" unless said. */
  applyLabel?: string;
  /** The table's accessible name, e.g. "Inquiries". */
  tableLabel: string;
  columns: readonly AdminListColumn<Item>[];
  /** Below md, show each row as a card (cells stacked, each with its column's name). */
  stackBelowMd?: boolean;
  rowAttributes?: (item: Item) => Record<`data-${string}`, string>;
  /** The spec's empty text, and the one shown while filtered (the same unless said). */
  emptyText: string;
  filteredEmptyText?: string;
  /** For the count under the table: ["inquiry", "inquiries"]. */
  noun: [singular: string, plural: string];
  /** Between the header and the summary (an answer shown without JavaScript). */
  notice?: ReactNode;
  /** Dialogs. */
  children?: ReactNode;
}) {
  const { path, list, filters, filtersQuery } = props;
  const navigate = useNavigate();
  const stacked = props.stackBelowMd ?? false;
  // Any filter set: the empty state then offers to clear them.
  const filtered = filtersQuery({ ...filters, page: 1 }) !== "";

  return (
    <>
      <AdminPageHeader
        title={props.title}
        description={props.description}
        actions={props.actions}
      />
      {props.notice}
      {props.summary}

      <Card className="mt-6 p-4">
        <Form
          method="get"
          action={path}
          role="search"
          aria-label={props.filterLabel}
          className={props.filterClassName}
          onChange={(event) => {
            // Selects apply at once; the search box waits for Enter or the button.
            if (event.target instanceof HTMLSelectElement) event.currentTarget.requestSubmit();
          }}
          onSubmit={(event) => {
            // Without JavaScript the form sends every field; with it, the URL keeps only what is
            // set, and a new filter starts on page 1.
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            const next = props.parseFilters(
              new URLSearchParams([...form].map(([k, v]) => [k, String(v)])),
            );
            navigate(`${path}${filtersQuery({ ...next, page: 1 })}`);
          }}
        >
          {props.filterFields}
          <Button type="submit" variant="secondary">
            <Search aria-hidden />
            {props.applyLabel ?? "Apply"}
          </Button>
        </Form>
      </Card>

      <Card className="mt-6">
        {list.items.length === 0 ? (
          <p className="p-8 text-center text-muted-foreground">
            {filtered ? (props.filteredEmptyText ?? props.emptyText) : props.emptyText}
            {filtered ? (
              <>
                {" "}
                <Link to={path} className="text-primary underline underline-offset-4">
                  Clear the filters
                </Link>
              </>
            ) : null}
          </p>
        ) : (
          <ListTable
            label={props.tableLabel}
            columns={props.columns}
            items={list.items}
            stacked={stacked}
            rowAttributes={props.rowAttributes}
          />
        )}
      </Card>

      <Pagination
        page={list.page}
        pageCount={list.pageCount}
        total={list.total}
        noun={props.noun}
        hrefFor={(page) => `${path}${filtersQuery({ ...filters, page } as Partial<Filters>)}`}
      />
      {props.children}
    </>
  );
}
