// Previous, up to 5 page numbers in a sliding window, Next.

import { pageWindow } from "../lib/pagination.ts";

interface Props {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}

export function Pagination({ page, totalPages, onPage }: Props) {
  const pages = pageWindow(page, totalPages);
  return (
    <nav aria-label="Results pages" className="pagination">
      <ul>
        <li>
          <button
            type="button"
            className="outline secondary"
            onClick={() => onPage(page - 1)}
            disabled={page <= 1}
          >
            Previous
          </button>
        </li>
        {pages.map((pageNumber) => (
          <li key={pageNumber}>
            <button
              type="button"
              className={pageNumber === page ? undefined : "outline secondary"}
              aria-current={pageNumber === page ? "page" : undefined}
              aria-label={`Page ${pageNumber}`}
              onClick={() => onPage(pageNumber)}
            >
              {pageNumber}
            </button>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="outline secondary"
            onClick={() => onPage(page + 1)}
            disabled={page >= totalPages}
          >
            Next
          </button>
        </li>
      </ul>
    </nav>
  );
}
