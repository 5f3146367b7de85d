// A file name that may wrap only after its separators (_ - . and space), so
// "customer_ip_addresses.csv" never breaks inside "addresses".

import { Fragment } from "react";

export function FileName({ name }: { name: string }) {
  const parts = name.split(/(?<=[_\-.])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
