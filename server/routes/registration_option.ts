// registration=1 on the lookup routes: the block's registration data over
// RDAP, with the process's rate limit. A fresh RegistrationLookup per
// request, so one request's failures never stop the next from asking.
import { Store } from "../storage/store.ts";
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
  { config, store, engine, rdapPacer }: Pick<
    AppDeps,
    "config" | "store" | "engine" | "rdapPacer"
  >,
): NetworkAdjust {
  if (!config.rdap.enabled || !rdapPacer) throw badRequest(REGISTRATION_OFF);
  // The RDAP cache lives in the embedded SQLite database.
  if (!(store instanceof Store)) throw badRequest(REGISTRATION_OFF);
  const lookup = registrationLookupFor(config.rdap, store.db, rdapPacer, {
    // A lookup answers in seconds, not after a registry's long silence.
    timeoutMs: 5000,
  })!;
  const networks = new RegistrationNetworks((asn) =>
    engine.classifier.isCarrier(asn)
  );
  return registrationAdjust(networks, lookup);
}
