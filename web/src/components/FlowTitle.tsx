// The heading and step indicator of the upload -> process -> results flow,
// shared by Home (steps 1 and 2) and /results/:id (step 3).

import { StepIndicator } from "./StepIndicator.tsx";

export function FlowTitle({ step }: { step: 1 | 2 | 3 }) {
  return (
    <>
      <hgroup className="page-title">
        <h1>IP Address Enrichment</h1>
        <p>
          Add domain, company, geolocation, ISP and ASN data to a CSV of IP
          addresses.
        </p>
      </hgroup>
      <StepIndicator current={step} />
    </>
  );
}
