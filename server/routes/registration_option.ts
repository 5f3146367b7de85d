// registration=1 on the lookup routes: the block's registration data over
// RDAP, with the process's rate limit. A fresh RegistrationLookup per
// request, so one request's failures never stop the next from asking.
import type { AppDeps } from "../deps.ts";
import type { NetworkAdjust } from "../enrichment/engine.ts";
import { badRequest } from "../http_error.ts";
import { registrationLookupFor } from "../rdap/rdap_setup.ts";
import {
  registrationAdjust,
  RegistrationNetworks,
} from "../rdap/registration_network.ts";

export const REGISTRATION_OFF =
  "Registration data is off on this server (RDAP=on enables it)";

/** Whether a request's registration flag (1/true) asks for it. */
export function asksRegistration(flag: unknown): boolean {
  return flag === 1 || flag === "1" || flag === true || flag === "true";
}

/** The adjust step for one request; throws a 400 when RDAP is off. */
export function registrationFor(
  { config, engine, rdapPacer, rdapCache }: Pick<
    AppDeps,
    "config" | "engine" | "rdapPacer" | "rdapCache"
  >,
): NetworkAdjust {
  if (!config.rdap.enabled || !rdapPacer || !rdapCache) {
    throw badRequest(REGISTRATION_OFF);
  }
  const lookup = registrationLookupFor(config.rdap, rdapCache, rdapPacer, {
    // A lookup answers in seconds, not after a registry's long silence.
    timeoutMs: 5000,
  })!;
  const networks = new RegistrationNetworks((asn) =>
    engine.classifier.isCarrier(asn)
  );
  return registrationAdjust(networks, lookup);
}
