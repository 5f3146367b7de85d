// Home: the upload -> config -> processing -> results flow, and ?jobId= to
// continue an existing job. The first render is always the upload step, so
// the prerendered page shows the upload card before any call returns.

import { useCallback, useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import type { Job, UploadResult } from "../../../shared/wire.ts";
import { useJob } from "../api/jobs.ts";
import { ConfigurationOptions } from "../components/ConfigurationOptions.tsx";
import { HomeCards } from "../components/HomeCards.tsx";
import { ProcessingView } from "../components/ProcessingView.tsx";
import { ResultsView } from "../components/ResultsView.tsx";
import { StepIndicator } from "../components/StepIndicator.tsx";
import { UploadCard } from "../components/UploadCard.tsx";
import { showToast } from "../lib/toast.ts";
import { usePageTitle } from "../lib/use_page_title.ts";

type Step =
  | { name: "upload" }
  | { name: "config"; upload: UploadResult }
  | { name: "processing"; job: Job }
  | { name: "results"; jobId: number };

function parseJobId(value: string | null): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function HomePage() {
  usePageTitle("");
  const [params, setParams] = useSearchParams();
  const [step, setStep] = useState<Step>({ name: "upload" });
  const jobId = parseJobId(params.get("jobId"));
  const loadedJobId = useRef<number | null>(null);
  const linkedJob = useJob(
    step.name === "upload" ? jobId : null,
    5000,
  );

  // ?jobId=: load the job once; completed -> results, else -> processing.
  useEffect(() => {
    const job = linkedJob.data;
    if (!job || jobId === null || loadedJobId.current === jobId) return;
    loadedJobId.current = jobId;
    setStep(
      job.status === "completed"
        ? { name: "results", jobId: job.id }
        : { name: "processing", job },
    );
    showToast({
      title: "Job Loaded",
      description: `Continuing with job: ${
        job.originalFileName || job.fileName
      }`,
    });
  }, [linkedJob.data, jobId]);

  const startOver = useCallback(() => {
    setStep({ name: "upload" });
    if (params.has("jobId")) setParams({}, { replace: true });
  }, [params, setParams]);

  const onCompleted = useCallback(
    (job: Job) => setStep({ name: "results", jobId: job.id }),
    [],
  );

  const stepNumber = step.name === "upload"
    ? 1
    : step.name === "results"
    ? 3
    : 2;

  return (
    <>
      <hgroup className="page-title">
        <h1>IP Address Enrichment</h1>
        <p>
          Add domain, company, geolocation, ISP and ASN data to a CSV of IP
          addresses.
        </p>
      </hgroup>
      <StepIndicator current={stepNumber} />
      {jobId !== null && step.name === "upload" && linkedJob.isError && (
        <p className="notice notice-error" role="alert">
          Could not load job {jobId}: {linkedJob.error.message}
        </p>
      )}
      {step.name === "upload" && (
        <UploadCard
          onUploaded={(upload) => setStep({ name: "config", upload })}
        />
      )}
      {step.name === "config" && (
        <ConfigurationOptions
          upload={step.upload}
          onBack={() => setStep({ name: "upload" })}
          onStarted={(job) => setStep({ name: "processing", job })}
        />
      )}
      {step.name === "processing" && (
        <ProcessingView
          job={step.job}
          onCompleted={onCompleted}
          onProcessAnother={startOver}
        />
      )}
      {step.name === "results" && (
        <ResultsView jobId={step.jobId} onProcessAnother={startOver} />
      )}
      <HomeCards />
    </>
  );
}
