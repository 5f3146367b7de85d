// The three steps of Home: Upload CSV, Process Data, Download Results.

const STEPS = ["Upload CSV", "Process Data", "Download Results"];

export function StepIndicator({ current }: { current: 1 | 2 | 3 }) {
  return (
    <ol className="steps" aria-label="Progress">
      {STEPS.map((label, index) => {
        const step = index + 1;
        const state = step < current
          ? "done"
          : step === current
          ? "current"
          : "todo";
        return (
          <li
            key={label}
            className={`step step-${state}`}
            aria-current={state === "current" ? "step" : undefined}
          >
            <span className="step-number" aria-hidden="true">{step}</span>
            <span className="step-label">{label}</span>
          </li>
        );
      })}
    </ol>
  );
}
