// A number of seconds as a person reads a wait: "40 seconds", "3 minutes",
// "2 hours" (rounded up: it is shown as an upper bound).

export function roughDuration(seconds: number): string {
  if (seconds <= 1) return "1 second";
  if (seconds < 90) return `${Math.ceil(seconds)} seconds`;
  const minutes = seconds / 60;
  if (minutes < 90) return `${Math.ceil(minutes)} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}
