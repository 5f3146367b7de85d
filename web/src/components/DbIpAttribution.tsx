// The attribution the DB-IP Lite licence (CC BY 4.0) asks for.

export function DbIpAttribution() {
  return (
    <p className="attribution">
      <small>
        <a href="https://db-ip.com">IP Geolocation by DB-IP</a>
      </small>
    </p>
  );
}
