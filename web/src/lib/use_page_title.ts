// Sets the document title of a page (the prerendered HTML has it already).

import { useEffect } from "react";

export const SITE_NAME = "IP Enrichment";

export function pageTitle(title: string): string {
  return title ? `${title} · ${SITE_NAME}` : SITE_NAME;
}

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
