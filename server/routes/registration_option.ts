// registration=1 on the lookup routes: the block's registration data over
// RDAP, with the process's rate limit. A fresh RegistrationLookup per
// request, so one request's failures never stop the next from asking.
import type { LookupField } from "../../shared/wire.ts";
import type { AppDeps } from "../deps.ts";
import type { NetworkAdjust } from "../enrichment/engine.ts";
import type { EnrichOptions } from "../enrichment/types.ts";
import { badRequest } from "../http_error.ts";
import { registrationLookupFor } from "../rdap/rdap_setup.ts";
import {
  registrationAdjust,
  RegistrationNetworks,
} from "../rdap/registration_network.ts";
import { optionsFor } from "./field_options.ts";

type RegistrationDeps = Pick<
  AppDeps,
  "config" | "engine" | "rdapPacer" | "rdapCache"
>;

export const REGISTRATION_OFF =
  "Registration data is off on this server (RDAP=on enables it)";

/** What a lookup request asks of the engine. */
export interface LookupWork {
  options: EnrichOptions;
  /** The registration step, when the request's flag (1/true) asks for it. */
  adjust?: NetworkAdjust;
}

/**
 * The engine options a lookup's fields= need, with registration data when
 * its registration flag asks; throws a 400 when that is asked and RDAP is off.
 */
export function lookupWork(
  deps: RegistrationDeps,
  fields: readonly LookupField[] | undefined,
  flag: unknown,
): LookupWork {
  const options = optionsFor(fields);
  if (flag !== 1 && flag !== "1" && flag !== true && flag !== "true") {
    return { options };
  }
  return {
    options: { ...options, registration: true },
    adjust: registrationFor(deps),
  };
}

function registrationFor(
  { config, engine, rdapPacer, rdapCache }: RegistrationDeps,
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
