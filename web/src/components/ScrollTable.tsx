// A table that scrolls inside its own box. The box is a named, focusable
// region so keyboard users can scroll it (axe: scrollable-region-focusable),
// and the page never scrolls sideways.

import type { ReactNode, Ref } from "react";

/** A header row of column titles, each a column header for screen readers. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((title) => <th key={title} scope="col">{title}</th>)}
      </tr>
    </thead>
  );
}

interface ScrollRegionProps {
  /** The region's accessible name. */
  label: string;
  className?: string;
  scrollRef?: Ref<HTMLDivElement>;
  children: ReactNode;
}

export function ScrollRegion(
  { label, className = "overflow-auto", scrollRef, children }:
    ScrollRegionProps,
) {
  return (
    <div
      className={className}
      ref={scrollRef}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      {children}
    </div>
  );
}

interface ScrollTableProps extends Omit<ScrollRegionProps, "children"> {
  columns: readonly string[];
  tableClassName?: string;
  /** The table's rows. */
  children: ReactNode;
}

export function ScrollTable(
  { columns, tableClassName, children, ...region }: ScrollTableProps,
) {
  return (
    <ScrollRegion {...region}>
      <table className={tableClassName}>
        <TableHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </ScrollRegion>
  );
}
