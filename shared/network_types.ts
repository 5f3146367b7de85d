// What the classifier calls a network, and the words a person reads for it:
// one list for the classifier, the schemas, the preview filter, the charts
// and the .xlsx Summary sheet.

/** Values of network_type, consumer access first. */
export const NETWORK_TYPES = [
  "consumer_isp",
  "mobile",
  "hosting",
  "business",
  "education",
  "government",
] as const;

export type NetworkType = (typeof NETWORK_TYPES)[number];

/** The label a person reads for each network type. */
export const NETWORK_TYPE_LABELS: Record<NetworkType, string> = {
  consumer_isp: "Consumer ISP",
  mobile: "Mobile network",
  hosting: "Hosting / cloud",
  business: "Business",
  education: "Education",
  government: "Government",
};
