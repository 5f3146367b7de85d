// Wire format shared by the server (server/) and the web app (web/). The
// enrichment fields come from shared/enrichment_fields.ts.
import {
  ENRICHMENT_FIELDS,
  type EnrichmentValues,
} from "./enrichment_fields.ts";
import type { OperatorContact } from "./operator_contact.ts";

export { ENRICHMENT_FIELDS };

export type JobStatus =
  | "pending"
  | "processing"
  | "completed"
  | "failed"
  | "cancelled";

/** Answer of POST /api/upload. */
export interface UploadResult {
  fileName: string;
  originalFileName: string;
  size: number;
  headers: string[];
  /** Data rows counted while the file streamed in (header row excluded). */
  rowCount: number;
  /** The first data rows (five at most), for the configuration preview. */
  sampleRows: string[][];
  /** Something to tell the user about the file (too wide for .xlsx). */
  notice?: string;
}

/**
 * What a job does with a row whose classification_confidence is below
 * even odds: keep it in the download (the default: losing a business is
 * worse than keeping a household) or filter it out, whatever its type.
 */
export const LOW_CONFIDENCE_CHOICES = ["keep", "filter"] as const;
/** A confidence below this is low (calibrated: more likely wrong than right). */
export const LOW_CONFIDENCE_BELOW = 0.5;
export type LowConfidence = typeof LOW_CONFIDENCE_CHOICES[number];

/** Body of POST /api/enrich. Flags arrive as 1/0 or booleans. */
export interface EnrichRequest {
  fileName: string;
  originalFileName?: string;
  totalIPs?: number;
  status?: string;
  ipColumnName: string;
  includeGeolocation: number | boolean;
  includeDomain: number | boolean;
  includeCompany: number | boolean;
  includeNetwork: number | boolean;
  /** Resolve host-name cells forward (A, then AAAA); off by default. */
  resolveHostnames?: number | boolean;
  /** Registration data over RDAP (online); refused when the server has it off. */
  includeRegistration?: number | boolean;
  /** AS numbers or CIDRs, one per line, kept even when filtered. */
  alwaysKeep?: string;
  /** Rows the classifier is unsure of: "keep" (default) or "filter". */
  lowConfidence?: LowConfidence;
}

export interface Job {
  id: number;
  fileName: string;
  originalFileName: string;
  status: JobStatus;
  totalIPs: number;
  processedIPs: number;
  successfulIPs: number;
  failedIPs: number;
  filteredIPs: number;
  ipColumnName: string;
  createdAt: string;
  /** Set when the job reaches completed, failed or cancelled. */
  completedAt: string | null;
  error: string | null;
  /** True once at least one row has been committed, so a partial download exists. */
  partialSaveAvailable: boolean;
  includeGeolocation: boolean;
  includeDomain: boolean;
  includeCompany: boolean;
  includeNetwork: boolean;
  /** Registration data over RDAP was asked for. */
  includeRegistration: boolean;
  /** What the job does with rows the classifier is unsure of. */
  lowConfidence: LowConfidence;
  /** How the job's host-name lookups ended, one count per lookup made. */
  hostnameLookups: HostnameLookups;
  /** How the job's registration (RDAP) lookups ended. */
  registrationLookups: RegistrationLookups;
  /**
   * The databases the job runs on (DataStatus.version when it was made);
   * null for jobs from before versions were recorded.
   */
  dataVersion: string | null;
}

/**
 * Registration (RDAP) lookups by outcome: answered by a registry (a network
 * or "none registered"); answered from the cache; failed (timed out, an
 * error, or not asked after repeated failures: those rows keep the AS-based
 * answer).
 */
export interface RegistrationLookups {
  answered: number;
  cached: number;
  failed: number;
}

/**
 * Host-name (reverse DNS) lookups by outcome: a name found; no name exists
 * (the answer said so); timed out (no answer, or the server failed); skipped
 * (every DNS server was resting after failing). A row without a host name
 * means "none exists" only for noName.
 */
export interface HostnameLookups {
  answered: number;
  noName: number;
  timedOut: number;
  skipped: number;
}

/** The enrichment values of one IP; empty fields are null. */
export type EnrichmentData = { ip: string } & EnrichmentValues;

/** One row of the live feed (GET /api/jobs/{id}/recent-results). */
export interface ResultRow {
  id: number;
  rowIndex: number;
  success: boolean;
  error: string | null;
  originalData: Record<string, string>;
  enrichmentData: EnrichmentData;
}

export interface RecentResultsResponse {
  results: ResultRow[];
  nextIndex: number;
}

/**
 * The preview's `status` filter: "kept", rows in the download (failed rows
 * are, with their reason); "filtered", rows left out as consumer networks;
 * "failed", rows whose lookup failed.
 */
export const PREVIEW_STATUSES = ["kept", "filtered", "failed"] as const;
export type PreviewStatus = (typeof PREVIEW_STATUSES)[number];

export interface PreviewRow {
  ip: string;
  /** False when the row's lookup failed; `error` says why. */
  success: boolean;
  /** Why the lookup failed, as the download's enrichment_error; else null. */
  error: string | null;
  domain: string | null;
  company: string | null;
  city: string | null;
  country: string | null;
  isp: string | null;
  ispFiltered: boolean;
  asn: string | null;
  /** consumer_isp, mobile, hosting, ...; null when not known. */
  networkType: string | null;
  /** Why the row got its network type (classification_reason). */
  classificationReason: string | null;
  /** How likely the filter's answer is right (classification_confidence). */
  classificationConfidence: number | null;
}

export interface PreviewResponse {
  job: Job;
  preview: PreviewRow[];
  totalResults: number;
  totalPages: number;
  currentPage: number;
  /** True when a text filter stopped counting: totalResults is a floor. */
  totalAtLeast?: boolean;
}

/** GET /api/lookup answer: success, or { ip, success: false, error }. */
/** The registration (RDAP) fields, in a lookup only with registration=1. */
export type RegistrationField =
  | "registered_org"
  | "registered_network"
  | "registered_country"
  | "abuse_email";

export type LookupResponse =
  | (
    & {
      success: true;
      ispFiltered: boolean;
      /** Present when the host name was asked for. */
      hostname_lookup?: HostnameLookup;
    }
    & Omit<EnrichmentData, "ip" | "ip_used" | RegistrationField>
    // Present only when asked for (registration=1).
    & Partial<Pick<EnrichmentData, RegistrationField>>
    & {
      ip: string;
    }
  )
  | { ip: string; success: false; error: string };

/** Most addresses one POST /api/lookup/batch or /api/bigquery request takes. */
export const BATCH_MAX_IPS = 1000;

/** Body of POST /api/lookup/batch: the addresses, or { ips: [...] }. */
export type BatchLookupRequest = string[] | {
  ips: string[];
  /** 1: also the registration data (RDAP, online). */
  registration?: 0 | 1 | boolean;
};

/** Answer of POST /api/lookup/batch: one lookup answer per address, in order. */
export type BatchLookupResponse = LookupResponse[];

/**
 * How a lookup's host name (reverse DNS) was found or not: a name; no name
 * exists (the answer said so); timed out (no answer, or the server failed);
 * skipped (every DNS server was resting after failing, so none was asked).
 */
export type HostnameLookup = "answered" | "no_name" | "timed_out" | "skipped";

/** Fields of a lookup answer that a `fields` selection can name. */
export type LookupField =
  | keyof EnrichmentData
  | "ispFiltered"
  | "hostname_lookup";

/**
 * Body BigQuery sends to POST /api/bigquery (remote function protocol): one
 * call per row, each holding the function's arguments (here: the address).
 */
export interface BigQueryRequest {
  requestId?: string;
  caller?: string;
  sessionUser?: string;
  /** From the function's user_defined_context; `fields` selects fields. */
  userDefinedContext?: Record<string, string>;
  calls: (string | null)[][];
}

/**
 * One JSON value per call, in order: the lookup answer (only the selected
 * fields plus success and error when `fields` is set), or null for a NULL.
 */
export interface BigQueryReply {
  replies: (Record<string, unknown> | null)[];
}

/** A malformed BigQuery request: BigQuery shows the message and fails. */
export interface BigQueryError {
  errorMessage: string;
}

export interface MessageResponse {
  message: string;
}

export interface ClearResponse {
  cleared: number;
}

/** Errors are JSON { message } with a 4xx/5xx status. */
export interface ErrorResponse {
  message: string;
}

/** Client -> server WebSocket messages on /ws. */
export type ClientMessage =
  | { type: "subscribe"; jobId: number }
  | { type: "unsubscribe"; jobId: number };

/** Server -> client WebSocket messages on /ws. */
export type ServerMessage =
  | { type: "subscribed"; jobId: number }
  | { type: "unsubscribed"; jobId: number }
  | {
    type: "jobUpdate";
    jobId: number;
    data: { job: Job; status: JobStatus; error: string | null };
  }
  | { type: "error"; message: string };

/** GET /api/config: what the web app needs to know of the server's settings. */
export interface PublicConfig {
  /** Largest upload, in MB sent. */
  maxUploadMb: number;
  /** What a compressed (.csv.gz, .zip) or .xlsx upload may hold, in MB. */
  maxUncompressedMb: number;
  /** Public lookup requests per minute per client address; 0: not limited. */
  rateLimitPerMinute: number;
  /** Lookups a client may make at once before the per-minute rate applies. */
  rateLimitBurst: number;
  /** Most addresses in one batch or BigQuery request. */
  batchMaxIps: number;
  /** Registration data (RDAP, online): whether the server has it on, its rate. */
  rdap: { enabled: boolean; rate: number };
  /** private: a visitor sees only their session's jobs; shared: every job. */
  jobsVisibility: "private" | "shared";
  /** Who answers for this server (CONTACT_EMAIL, CONTACT_URL). */
  contact: OperatorContact;
  /** The databases lookups and new jobs use, and their age. */
  data: DataStatus;
}

/** One database the server reads. */
export interface DatabaseInfo {
  kind: "geolocation" | "asn" | "classifier";
  name: string;
  /** The file read, when one (a package's or the user's). */
  file: string | null;
  /** Who makes the data, and how it came here. */
  source: string;
  licence: string | null;
  url: string | null;
  /** A package version, a file name, or (classifier) a hash of the contents. */
  version: string;
  /** When the data was built (ISO 8601); null when nothing says. */
  builtAt: string | null;
  /** bundled with the server, updated into DATA_DIR, or the user's own file. */
  origin: "bundled" | "updated" | "own";
}

/** What the server's data is, how old, and how its last update went. */
export interface DataStatus {
  /** One line naming every database's version: what a job records. */
  version: string;
  databases: DatabaseInfo[];
  /** Data built longer ago than this is called stale (DATA_MAX_AGE_DAYS). */
  maxAgeDays: number;
  /**
   * The last update-databases run, or scaled out this process's last taking
   * up of the deployment's data (null: none yet).
   */
  lastUpdate: DataUpdateOutcome | null;
}

/** How an update-databases run ended. */
export interface DataUpdateOutcome {
  /** When it ended (ISO 8601). */
  at: string;
  ok: boolean;
  /** What it did, or why the data in use stayed. */
  message: string;
}
