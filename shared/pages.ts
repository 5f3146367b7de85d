// The web app's pages: the server answers these paths with the app (its
// prerendered HTML, or the empty shell the browser renders into), and the
// build prerenders those marked `prerender`.

export interface ClientPage {
  /** react-router path pattern, e.g. "/results/:id". */
  path: string;
  /** Whether the build writes static HTML for it (<path>/index.html). */
  prerender: boolean;
}

export const CLIENT_PAGES: readonly ClientPage[] = [
  { path: "/", prerender: true },
  { path: "/history", prerender: true },
  { path: "/bulk-processing", prerender: true },
  { path: "/api", prerender: true },
  { path: "/pricing", prerender: true },
  { path: "/results/:id", prerender: false },
];
