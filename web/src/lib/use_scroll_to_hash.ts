// Scrolls to the element named by the URL's #hash after client navigation.

import { useEffect } from "react";
import { useLocation } from "react-router";

export function useScrollToHash(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const element = document.getElementById(decodeURIComponent(hash.slice(1)));
    element?.scrollIntoView();
  }, [hash]);
}
