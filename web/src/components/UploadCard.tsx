// Upload step: drag-and-drop zone, Browse Files, the notes, requirements and
// example CSV. Checks name and size, uploads, and hands the result on.

import { type DragEvent, useId, useRef, useState } from "react";
import type { UploadResult } from "../../../shared/wire.ts";
import { useMaxUploadMb } from "../api/config.ts";
import { hasHeaders, useUploadFile } from "../api/upload.ts";
import { showToast } from "../lib/toast.ts";

const EXAMPLE_CSV = `ip_address,client_id,timestamp
8.8.8.8,1001,2024-01-15 10:30:00
1.1.1.1,1002,2024-01-15 10:31:12
81.2.69.142,1003,2024-01-15 10:32:45`;

/** About 20,000 IPs per MB in a typical file (100,000 in 5MB). */
const IPS_PER_MB = 20_000;

export function UploadCard(
  { onUploaded }: { onUploaded: (result: UploadResult) => void },
) {
  const upload = useUploadFile();
  const { maxUploadMb, known } = useMaxUploadMb();
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const recommendedMb = Math.min(5, maxUploadMb);

  const handleFile = (file: File | undefined) => {
    if (!file || upload.isPending) return;
    if (!file.name.toLowerCase().endsWith(".csv")) {
      showToast({
        title: "Invalid file format",
        description: "Please upload a CSV file",
        variant: "destructive",
      });
      return;
    }
    if (file.size > maxUploadMb * 1024 * 1024) {
      showToast({
        title: "File too large",
        description: `Please upload a file smaller than ${maxUploadMb}MB`,
        variant: "destructive",
      });
      return;
    }
    upload.mutate(file, {
      onSuccess: (result) => {
        if (hasHeaders(result)) onUploaded(result);
      },
    });
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    handleFile(event.dataTransfer.files?.[0]);
  };

  return (
    <article className="upload-card">
      <header>
        <h2>Upload IP Addresses</h2>
      </header>
      <div
        className={`drop-zone${dragging ? " dragging" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        aria-busy={upload.isPending || undefined}
      >
        <p className="drop-zone-icon" aria-hidden="true">⇪</p>
        <p>
          <strong>Drag and drop your CSV file here</strong>
        </p>
        <p>or</p>
        <label htmlFor={inputId} className="visually-hidden">
          CSV file with IP addresses
        </label>
        <input
          id={inputId}
          ref={fileInput}
          type="file"
          accept=".csv,text/csv"
          className="visually-hidden"
          tabIndex={-1}
          aria-describedby={hintId}
          onChange={(event) => {
            handleFile(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
        <button
          type="button"
          onClick={() => fileInput.current?.click()}
          disabled={upload.isPending}
          aria-busy={upload.isPending || undefined}
          aria-describedby={hintId}
        >
          {upload.isPending ? "Uploading..." : "Browse Files"}
        </button>
        <p id={hintId} className="muted">
          <small>
            Supported format: CSV with a column containing IP addresses
            {known && (
              <>
                <br />Maximum file size: {maxUploadMb}MB
              </>
            )}
          </small>
        </p>
      </div>
      <div className="grid upload-notes">
        <section>
          <h3>CSV requirements</h3>
          <ul>
            <li>File must contain a header row</li>
            <li>Must include a column with IP addresses</li>
            <li>
              Recommended max size: {recommendedMb}MB (approx.{" "}
              {(recommendedMb * IPS_PER_MB).toLocaleString("en-US")} IPs)
            </li>
          </ul>
        </section>
        <section>
          <h3>Example CSV</h3>
          <pre><code>{EXAMPLE_CSV}</code></pre>
        </section>
      </div>
    </article>
  );
}
