// Page arithmetic of the results preview: 10 rows a page, at most 5 page
// links.

export const PAGE_SIZE = 10;
export const MAX_PAGE_LINKS = 5;

/** Up to `max` page numbers in a window that slides with the current page. */
export function pageWindow(
  current: number,
  totalPages: number,
  max = MAX_PAGE_LINKS,
): number[] {
  const total = Math.max(1, totalPages);
  const page = clampPage(current, total);
  const count = Math.min(max, total);
  let start = Math.max(1, page - Math.floor(count / 2));
  start = Math.min(start, total - count + 1);
  return Array.from({ length: count }, (_, i) => start + i);
}

/** Only pages 1 to totalPages are accepted. */
export function clampPage(page: number, totalPages: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.floor(page)), Math.max(1, totalPages));
}

/** The a and b of "Showing a to b of total results". */
export function shownRange(
  page: number,
  pageSize: number,
  total: number,
): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * pageSize + 1;
  return { from, to: Math.min(total, page * pageSize) };
}
