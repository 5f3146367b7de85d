// Upload step: drag-and-drop zone, Browse Files, the notes, requirements and
// example CSV. Checks name and size, uploads with a progress bar and a
// Cancel upload button, and hands the result on.

import { type DragEvent, useId, useRef, useState } from "react";
import type { UploadResult } from "../../../shared/wire.ts";
import { useUploadSizes } from "../api/config.ts";
import {
  hasHeaders,
  type UploadProgress,
  useUploadFile,
} from "../api/upload.ts";
import { formatBytes, percentOf } from "../lib/format.ts";
import { uploadSizeStory } from "../lib/upload_sizes.ts";
import { showToast } from "../lib/toast.ts";
import { ACCEPTED_EXTENSIONS } from "../../../shared/upload_files.ts";

const ACCEPTED = ACCEPTED_EXTENSIONS;
const ACCEPTED_TEXT = "CSV, TSV, Excel (.xlsx), or a .csv.gz/.zip of one CSV";

const EXAMPLE_CSV = `ip_address,client_id,timestamp
8.8.8.8,1001,2024-01-15 10:30:00
1.1.1.1,1002,2024-01-15 10:31:12
81.2.69.142,1003,2024-01-15 10:32:45`;

export function UploadCard(
  { onUploaded }: { onUploaded: (result: UploadResult) => void },
) {
  const upload = useUploadFile();
  const sizes = useUploadSizes();
  const { maxUploadMb, known } = sizes;
  const sizeStory = uploadSizeStory(sizes);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const cancel = useRef<AbortController | null>(null);

  const handleFile = (file: File | undefined) => {
    if (!file || upload.isPending) return;
    const name = file.name.toLowerCase();
    if (!ACCEPTED.some((extension) => name.endsWith(extension))) {
      showToast({
        title: "Invalid file format",
        description: `Please upload a ${ACCEPTED_TEXT}`,
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
    const controller = new AbortController();
    cancel.current = controller;
    setProgress({ loaded: 0, total: file.size });
    upload.mutate(
      { file, onProgress: setProgress, signal: controller.signal },
      {
        onSuccess: (result) => {
          if (hasHeaders(result)) onUploaded(result);
        },
        onSettled: () => {
          cancel.current = null;
          setProgress(null);
        },
      },
    );
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
          <strong>Drag and drop your file here</strong>
        </p>
        <p>or</p>
        <label htmlFor={inputId} className="visually-hidden">
          File with IP addresses (CSV, TSV, Excel, .csv.gz or .zip)
        </label>
        <input
          id={inputId}
          ref={fileInput}
          type="file"
          accept={[...ACCEPTED, "text/csv"].join(",")}
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
        {upload.isPending && progress && (
          <UploadProgressBar
            progress={progress}
            onCancel={() => cancel.current?.abort()}
          />
        )}
        <p id={hintId} className="muted">
          <small>
            Supported formats:{" "}
            {ACCEPTED_TEXT}, with a column containing IP addresses
            {known && (
              <>
                <br />
                {sizeStory.limit}
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
            {known && <li>{sizeStory.rows}</li>}
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

function UploadProgressBar(
  { progress, onCancel }: { progress: UploadProgress; onCancel: () => void },
) {
  const percent = percentOf(progress.loaded, progress.total);
  return (
    <div className="upload-progress">
      <progress
        value={progress.loaded}
        max={progress.total || 1}
        aria-label="Upload progress"
      />
      <p aria-live="polite">
        <strong>{percent}%</strong> · {formatBytes(progress.loaded)} of{" "}
        {formatBytes(progress.total)}
      </p>
      <button type="button" className="secondary outline" onClick={onCancel}>
        Cancel upload
      </button>
    </div>
  );
}
