// Schema migrations, applied in order at start; user_version records progress.
// Kept as code so `deno compile` embeds them with the program.

export const MIGRATIONS: string[] = [
  `
  CREATE TABLE uploads (
    file_name TEXT PRIMARY KEY,
    original_file_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    headers TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    delimiter TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    file_name TEXT NOT NULL,
    original_file_name TEXT NOT NULL,
    status TEXT NOT NULL,
    total_ips INTEGER NOT NULL DEFAULT 0,
    processed_ips INTEGER NOT NULL DEFAULT 0,
    successful_ips INTEGER NOT NULL DEFAULT 0,
    failed_ips INTEGER NOT NULL DEFAULT 0,
    filtered_ips INTEGER NOT NULL DEFAULT 0,
    ip_column_name TEXT NOT NULL,
    ip_column_index INTEGER NOT NULL,
    headers TEXT NOT NULL,
    delimiter TEXT NOT NULL,
    include_geolocation INTEGER NOT NULL,
    include_domain INTEGER NOT NULL,
    include_company INTEGER NOT NULL,
    include_network INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT,
    error TEXT
  );
  CREATE INDEX jobs_status ON jobs(status);
  CREATE TABLE results (
    job_id INTEGER NOT NULL,
    row_index INTEGER NOT NULL,
    original TEXT NOT NULL,
    ip TEXT NOT NULL,
    success INTEGER NOT NULL,
    error TEXT,
    isp_filtered INTEGER NOT NULL,
    country TEXT,
    country_code TEXT,
    region TEXT,
    city TEXT,
    latitude REAL,
    longitude REAL,
    hostname TEXT,
    domain TEXT,
    company TEXT,
    network_type TEXT,
    isp TEXT,
    asn TEXT,
    PRIMARY KEY (job_id, row_index)
  ) WITHOUT ROWID;
  `,
];
