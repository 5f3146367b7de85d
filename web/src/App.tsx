// The whole app below the router: providers, layout and routes.

import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Route, Routes } from "react-router";
import { Layout } from "./components/Layout.tsx";
import { Notifications } from "./components/Notifications.tsx";
import { ApiPage } from "./pages/ApiPage.tsx";
import { BulkProcessingPage } from "./pages/BulkProcessingPage.tsx";
import { HistoryPage } from "./pages/HistoryPage.tsx";
import { HomePage } from "./pages/HomePage.tsx";
import { NotFoundPage } from "./pages/NotFoundPage.tsx";
import { PricingPage } from "./pages/PricingPage.tsx";
import { ResultsPage } from "./pages/ResultsPage.tsx";

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Notifications>
        <Layout>
          <Routes>
            <Route path="/" element={<HomePage />} />
            <Route path="/history" element={<HistoryPage />} />
            <Route path="/bulk-processing" element={<BulkProcessingPage />} />
            <Route path="/api" element={<ApiPage />} />
            <Route path="/pricing" element={<PricingPage />} />
            <Route path="/results/:id" element={<ResultsPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Layout>
      </Notifications>
    </QueryClientProvider>
  );
}
