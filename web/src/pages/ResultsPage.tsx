// /results/:id: the results view of one job.

import { useNavigate, useParams } from "react-router";
import { ResultsView } from "../components/ResultsView.tsx";
import { usePageTitle } from "../lib/use_page_title.ts";
import { NotFoundPage } from "./NotFoundPage.tsx";

export function ResultsPage() {
  usePageTitle("Enrichment Results");
  const navigate = useNavigate();
  const { id } = useParams();
  if (!id || !/^\d+$/.test(id)) return <NotFoundPage />;
  return (
    <ResultsView
      key={id}
      jobId={Number(id)}
      onProcessAnother={() => navigate("/")}
    />
  );
}
