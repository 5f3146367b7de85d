// /results/:id: the results view of one job, the flow's last step. Home
// moves here when a job completes, so a reload or a shared link shows the
// same results.

import { useNavigate, useParams } from "react-router";
import { FlowTitle } from "../components/FlowTitle.tsx";
import { ResultsView } from "../components/ResultsView.tsx";
import { usePageTitle } from "../lib/use_page_title.ts";
import { NotFoundPage } from "./NotFoundPage.tsx";

export function ResultsPage() {
  usePageTitle("Enrichment Results");
  const navigate = useNavigate();
  const { id } = useParams();
  if (!id || !/^\d+$/.test(id)) return <NotFoundPage />;
  return (
    <>
      <FlowTitle step={3} />
      <ResultsView
        key={id}
        jobId={Number(id)}
        onProcessAnother={() => navigate("/")}
      />
    </>
  );
}
