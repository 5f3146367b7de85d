// The whole app below the router: providers, layout and routes.

import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { Route, Routes } from "react-router";
import { CLIENT_PAGES, type ClientPagePath } from "../../shared/pages.ts";
import { Layout } from "./components/Layout.tsx";
import { Notifications } from "./components/Notifications.tsx";
import { ApiPage } from "./pages/ApiPage.tsx";
import { BulkProcessingPage } from "./pages/BulkProcessingPage.tsx";
import { ContactPage } from "./pages/ContactPage.tsx";
import { DocsPage } from "./pages/DocsPage.tsx";
import { HistoryPage } from "./pages/HistoryPage.tsx";
import { HomePage } from "./pages/HomePage.tsx";
import { NotFoundPage } from "./pages/NotFoundPage.tsx";
import { PrivacyPage } from "./pages/PrivacyPage.tsx";
import { ResultsPage } from "./pages/ResultsPage.tsx";
import { TermsPage } from "./pages/TermsPage.tsx";

const PAGE_COMPONENTS: Record<ClientPagePath, ComponentType> = {
  "/": HomePage,
  "/history": HistoryPage,
  "/bulk-processing": BulkProcessingPage,
  "/api": ApiPage,
  "/docs": DocsPage,
  "/privacy": PrivacyPage,
  "/terms": TermsPage,
  "/contact": ContactPage,
  "/results/:id": ResultsPage,
};

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Notifications>
        <Layout>
          <Routes>
            {CLIENT_PAGES.map(({ path }) => {
              const Page = PAGE_COMPONENTS[path];
              return <Route key={path} path={path} element={<Page />} />;
            })}
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Layout>
      </Notifications>
    </QueryClientProvider>
  );
}
