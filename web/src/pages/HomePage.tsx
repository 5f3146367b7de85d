// Home: the upload -> config -> processing steps of the flow. The address
// names the job while it runs (/?jobId={id}, so a reload or a shared link
// continues it) and moves to /results/{id} when it completes. The first
// render is always the upload step, so the prerendered page shows the
// upload card before any call returns.

import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { Job, UploadResult } from "../../../shared/wire.ts";
import { isNotFound } from "../api/http.ts";
import { useJob } from "../api/jobs.ts";
import { ConfigurationOptions } from "../components/ConfigurationOptions.tsx";
import { HomeCards } from "../components/HomeCards.tsx";
import { JobNotHere } from "../components/JobNotHere.tsx";
import { ProcessingView } from "../components/ProcessingView.tsx";
import { FlowTitle } from "../components/FlowTitle.tsx";
import { UploadCard } from "../components/UploadCard.tsx";
import { showToast } from "../lib/toast.ts";
import { usePageTitle } from "../lib/use_page_title.ts";

type Step =
  | { name: "upload" }
  | { name: "config"; upload: UploadResult }
  | { name: "processing"; job: Job };

function parseJobId(value: string | null): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function HomePage() {
  usePageTitle("");
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ name: "upload" });
  const jobId = parseJobId(params.get("jobId"));
  const loadedJobId = useRef<number | null>(null);
  const linkedJob = useJob(
    step.name === "upload" ? jobId : null,
    5000,
  );

  // Another session's job (or none): the words the results page has.
  const notHere = jobId !== null && step.name === "upload" &&
    linkedJob.isError && isNotFound(linkedJob.error);

  const showResults = useCallback(
    (id: number) => navigate(`/results/${id}`, { replace: true }),
    [navigate],
  );

  // ?jobId=: load the job once; completed -> its results, else -> processing.
  useEffect(() => {
    const job = linkedJob.data;
    if (!job || jobId === null || loadedJobId.current === jobId) return;
    loadedJobId.current = jobId;
    if (job.status === "completed") showResults(job.id);
    else setStep({ name: "processing", job });
    showToast({
      title: "Job Loaded",
      description: `Continuing with job: ${
        job.originalFileName || job.fileName
      }`,
    });
  }, [linkedJob.data, jobId, showResults]);

  // Back from /?jobId= to /: the address wins, so the upload step shows.
  useEffect(() => {
    if (jobId !== null) return;
    loadedJobId.current = null;
    setStep((current) =>
      current.name === "processing" ? { name: "upload" } : current
    );
  }, [jobId]);

  const startOver = useCallback(() => {
    setStep({ name: "upload" });
    if (params.has("jobId")) setParams({}, { replace: true });
  }, [params, setParams]);

  const onStarted = useCallback((job: Job) => {
    loadedJobId.current = job.id;
    setStep({ name: "processing", job });
    setParams({ jobId: String(job.id) });
  }, [setParams]);

  const onCompleted = useCallback(
    (job: Job) => showResults(job.id),
    [showResults],
  );

  return (
    <>
      <FlowTitle step={step.name === "upload" ? 1 : 2} />
      {notHere && <JobNotHere jobId={jobId} />}
      {jobId !== null && step.name === "upload" && linkedJob.isError &&
        !notHere && (
        <p className="notice notice-error" role="alert">
          Could not load job {jobId}: {linkedJob.error.message}
        </p>
      )}
      {step.name === "upload" && !notHere && (
        <UploadCard
          onUploaded={(upload) => setStep({ name: "config", upload })}
        />
      )}
      {step.name === "config" && (
        <ConfigurationOptions
          upload={step.upload}
          onBack={() => setStep({ name: "upload" })}
          onStarted={onStarted}
        />
      )}
      {step.name === "processing" && (
        <ProcessingView
          job={step.job}
          onCompleted={onCompleted}
          onProcessAnother={startOver}
        />
      )}
      <HomeCards />
    </>
  );
}
