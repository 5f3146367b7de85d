// Browser entry: hydrates the prerendered page when the HTML was made for
// this route, otherwise renders from scratch.

import "@picocss/pico/css/pico.min.css";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/flow.css";
import "./styles/results.css";
import "./styles/widgets.css";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { createQueryClient } from "./api/query_client.ts";
import { App } from "./App.tsx";
import { routeFor } from "./routes.ts";

const container = document.getElementById("root")!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <App queryClient={createQueryClient()} />
    </BrowserRouter>
  </StrictMode>
);

if (container.dataset.route === routeFor(location.pathname).path) {
  hydrateRoot(container, app, {
    onRecoverableError: (error) => console.warn("Hydration:", error),
  });
} else {
  container.textContent = "";
  createRoot(container).render(app);
}
