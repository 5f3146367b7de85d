// The wire format of GET /api/jobs/{id}/summary: what a person reads at a
// glance about one job. Computed in the database over the rows stored so far,
// so a running job's summary grows as its chunks commit their progress.

/** Entries in each "top" list. */
export const SUMMARY_TOP_N = 20;

/** Row totals over the rows stored so far. */
export interface SummaryRows {
  /** Rows stored (processed) so far. */
  total: number;
  /** Rows that got enrichment data. */
  successful: number;
  /** Rows that failed (invalid, reserved, no data). */
  failed: number;
  /** Rows marked as consumer access networks: left out of the download. */
  filtered: number;
  /** Rows in the download: every row that is not filtered. */
  kept: number;
}

export interface NetworkTypeCount {
  /** consumer_isp, mobile, hosting, business, education, government; null
   * for successful rows whose network type is not known. */
  network_type: string | null;
  count: number;
  /** Of `count`, rows filtered out of the download. */
  filtered: number;
}

export interface FailureCount {
  /** The row's error text, as the download shows it. */
  reason: string;
  count: number;
}

export interface CompanyCount {
  company: string;
  count: number;
}

export interface AsnCount {
  /** "AS15169 Google LLC" */
  asn: string;
  count: number;
}

export interface CountryCount {
  country: string;
  /** ISO 3166-1 alpha-2; null when the database had a name only. */
  country_code: string | null;
  count: number;
}

export interface CityCount {
  city: string;
  country_code: string | null;
  count: number;
}

/** How reverse-DNS lookups ended (optional: the job may not record it). */
export interface HostnameOutcomes {
  answered: number;
  no_name: number;
  timed_out: number;
  skipped: number;
}

export interface JobSummary {
  jobId: number;
  rows: SummaryRows;
  /**
   * Distinct addresses among the rows (an address may repeat), once the
   * job is completed; absent before, and for jobs of earlier versions.
   */
  distinctAddresses?: number;
  /** Successful rows by network type, largest first. */
  networkTypes: NetworkTypeCount[];
  /** Failed rows by reason, largest first. */
  failedByReason: FailureCount[];
  /** Top companies among kept (not filtered) rows. */
  topCompanies: CompanyCount[];
  topAsns: AsnCount[];
  topCountries: CountryCount[];
  topCities: CityCount[];
  hostnames?: HostnameOutcomes;
}

/** A summary of no rows (a job that has not started). */
export function emptySummary(jobId: number): JobSummary {
  return {
    jobId,
    rows: { total: 0, successful: 0, failed: 0, filtered: 0, kept: 0 },
    networkTypes: [],
    failedByReason: [],
    topCompanies: [],
    topAsns: [],
    topCountries: [],
    topCities: [],
  };
}
