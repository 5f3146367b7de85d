// The data release of a scaled-out deployment: which version of each bundled
// database every process reads (server/databases/release.ts), one row in
// PostgreSQL. Publishing only moves a package forward, under the row's lock,
// and NOTIFYs every process, which then takes the release up.
import type postgres from "postgres";
import {
  newerVersions,
  type PackageVersions,
  sameVersions,
} from "../../databases/bundled.ts";
import { transaction } from "./pg_connect.ts";

/** The migration step that creates the row's table (appended in pg_schema.ts). */
export const PG_DATA_RELEASE_SCHEMA = `
  CREATE TABLE data_release (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    packages jsonb NOT NULL,
    published_at timestamptz NOT NULL DEFAULT now(),
    scheduled_at timestamptz
  );
`;

export const DATA_RELEASE_CHANNEL = "ip_enrich_data_release";

export class PgDataRelease {
  constructor(readonly sql: postgres.Sql) {}

  /** The recorded release ({} before any process published one). */
  async read(): Promise<PackageVersions> {
    const [row] = await this.sql<{ packages: PackageVersions }[]>`
      SELECT packages FROM data_release`;
    return row?.packages ?? {};
  }

  /**
   * Records `packages` where they are newer than the recorded ones, and
   * tells every process when that changed anything; returns the release.
   */
  publish(packages: PackageVersions): Promise<PackageVersions> {
    return transaction(this.sql, async (tx) => {
      await tx`INSERT INTO data_release (packages) VALUES ('{}')
        ON CONFLICT (id) DO NOTHING`;
      const [row] = await tx<{ packages: PackageVersions }[]>`
        SELECT packages FROM data_release FOR UPDATE`;
      const release = newerVersions(row.packages, packages);
      if (!sameVersions(release, row.packages)) {
        await tx`UPDATE data_release
          SET packages = ${tx.json(release)}, published_at = now()`;
        // Sent when the transaction commits.
        await tx`SELECT pg_notify(${DATA_RELEASE_CHANNEL}, '')`;
      }
      return release;
    });
  }

  /**
   * Whether this process runs the scheduled update now: the first to ask
   * in a day does, the others take its release up.
   */
  async claimSchedule(): Promise<boolean> {
    const rows = await this.sql`UPDATE data_release SET scheduled_at = now()
      WHERE scheduled_at IS NULL OR scheduled_at < now() - interval '1 day'
      RETURNING id`;
    return rows.length > 0;
  }

  /**
   * Calls `changed` on every publish, and after LISTEN comes back from a
   * lost connection (a publish may have been missed meanwhile).
   */
  async listen(changed: () => void): Promise<() => Promise<void>> {
    const { unlisten } = await this.sql.listen(
      DATA_RELEASE_CHANNEL,
      changed,
      changed,
    );
    return unlisten;
  }
}
