// Configuration step: IP column (preselected by the values of the first
// rows, shown in a preview), the four data options, Resolve host names,
// Registration data (when the server has RDAP on), what to do with rows the
// classifier is unsure of, the "Always keep" list, Back and Start.

import { type FormEvent, useId, useState } from "react";
import {
  type Job,
  LOW_CONFIDENCE_BELOW,
  type LowConfidence,
  type UploadResult,
} from "../../../shared/wire.ts";
import { useStartEnrichment } from "../api/jobs.ts";
import { formatCount } from "../lib/format.ts";
import { pickIpColumn } from "../lib/ip_column_by_values.ts";
import { showToast } from "../lib/toast.ts";
import { RegistrationOption } from "./RegistrationOption.tsx";
import { UploadPreviewTable } from "./UploadPreviewTable.tsx";

const OPTIONS = [
  { key: "includeGeolocation", label: "Geolocation (Country, City, Region)" },
  { key: "includeDomain", label: "Domain Name" },
  { key: "includeCompany", label: "Company Information" },
  { key: "includeNetwork", label: "Network Information (ASN, ISP)" },
] as const;

const LOW_CONFIDENCE_OPTIONS: { value: LowConfidence; label: string }[] = [
  { value: "keep", label: "Keep them" },
  { value: "filter", label: "Filter them out" },
];

const KEEP_EXAMPLE = "AS64500\n203.0.113.0/24";

type OptionKey = (typeof OPTIONS)[number]["key"];

interface Props {
  upload: UploadResult;
  onBack: () => void;
  onStarted: (job: Job) => void;
}

export function ConfigurationOptions({ upload, onBack, onStarted }: Props) {
  const startEnrichment = useStartEnrichment();
  const columnId = useId();
  const hostnamesHintId = useId();
  const keepId = useId();
  const [alwaysKeep, setAlwaysKeep] = useState("");
  const [column, setColumn] = useState(() =>
    pickIpColumn(upload.headers, upload.sampleRows ?? []).column
  );
  const [resolveHostnames, setResolveHostnames] = useState(false);
  const [includeRegistration, setIncludeRegistration] = useState(false);
  const [lowConfidence, setLowConfidence] = useState<LowConfidence>("keep");
  const lowConfidenceHintId = useId();
  const [options, setOptions] = useState<Record<OptionKey, boolean>>({
    includeGeolocation: true,
    includeDomain: true,
    includeCompany: true,
    includeNetwork: true,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!column) {
      showToast({
        title: "Configuration error",
        description: "Please select the column containing IP addresses",
        variant: "destructive",
      });
      return;
    }
    startEnrichment.mutate(
      {
        upload,
        ipColumnName: column,
        ...options,
        resolveHostnames,
        includeRegistration,
        lowConfidence,
        alwaysKeep,
      },
      { onSuccess: onStarted },
    );
  };

  return (
    <article>
      <header>
        <h2>Configuration Options</h2>
        <p className="muted">
          {upload.originalFileName}
          {typeof upload.rowCount === "number" &&
            ` · ${formatCount(upload.rowCount)} rows`}
        </p>
        {upload.notice && (
          <p className="notice notice-warning">{upload.notice}</p>
        )}
      </header>
      <form onSubmit={submit}>
        <label htmlFor={columnId}>IP Address Column</label>
        <select
          id={columnId}
          value={column}
          onChange={(event) => setColumn(event.target.value)}
          required
        >
          {upload.headers.map((header, index) => (
            <option key={`${index}-${header}`} value={header}>
              {header || `(column ${index + 1})`}
            </option>
          ))}
        </select>
        <UploadPreviewTable
          headers={upload.headers}
          rows={upload.sampleRows ?? []}
          column={column}
        />
        <fieldset>
          <legend>Data to Include</legend>
          {OPTIONS.map((option) => (
            <label key={option.key}>
              <input
                type="checkbox"
                name={option.key}
                checked={options[option.key]}
                onChange={(event) =>
                  setOptions({
                    ...options,
                    [option.key]: event.target.checked,
                  })}
              />
              {option.label}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Cells</legend>
          <label>
            <input
              type="checkbox"
              name="resolveHostnames"
              checked={resolveHostnames}
              onChange={(event) => setResolveHostnames(event.target.checked)}
              aria-describedby={hostnamesHintId}
            />
            Resolve host names
          </label>
          <small id={hostnamesHintId} className="muted">
            Cells such as mail.example.com are looked up (A, then AAAA) and the
            address found is enriched
          </small>
        </fieldset>
        <RegistrationOption
          rowCount={upload.rowCount}
          checked={includeRegistration}
          onChange={setIncludeRegistration}
        />
        <fieldset aria-describedby={lowConfidenceHintId}>
          <legend>Rows the classifier is unsure of</legend>
          {LOW_CONFIDENCE_OPTIONS.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name="lowConfidence"
                value={option.value}
                checked={lowConfidence === option.value}
                onChange={() => setLowConfidence(option.value)}
              />
              {option.label}
            </label>
          ))}
          <small id={lowConfidenceHintId} className="muted">
            Rows whose network type is more likely wrong than right (confidence
            below{" "}
            {LOW_CONFIDENCE_BELOW}). Keeping them loses no business; filtering
            them leaves fewer households.
          </small>
        </fieldset>
        <label htmlFor={keepId}>
          Always keep (AS numbers or CIDRs, one per line)
        </label>
        <textarea
          id={keepId}
          name="alwaysKeep"
          rows={3}
          placeholder={KEEP_EXAMPLE}
          value={alwaysKeep}
          onChange={(event) => setAlwaysKeep(event.target.value)}
          aria-describedby={`${keepId}-help`}
        />
        <small id={`${keepId}-help`} className="muted">
          Optional. Addresses in these networks stay in the download even when
          they belong to a consumer or mobile network.
        </small>
        <div className="button-row">
          <button type="button" className="secondary" onClick={onBack}>
            Back
          </button>
          <button
            type="submit"
            disabled={startEnrichment.isPending || !column}
            aria-busy={startEnrichment.isPending || undefined}
          >
            {startEnrichment.isPending ? "Starting..." : "Start Processing"}
          </button>
        </div>
      </form>
    </article>
  );
}
