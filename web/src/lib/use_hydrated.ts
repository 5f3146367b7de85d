// False during server rendering and the hydrating render, true afterwards:
// lets a page show its no-JavaScript form first and its interactive one after.

import { useEffect, useState } from "react";

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
