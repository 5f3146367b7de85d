// What the HTTP app is built from: the mode's parts (parts.ts), the settings
// and access. Each router takes the part it uses (Pick<AppDeps, ...>), so
// routes never import the app that mounts them.
import type { Access } from "./access/install_access.ts";
import type { Config } from "./config.ts";
import type { Parts } from "./parts.ts";

export type AppDeps = Parts & { config: Config; access: Access };
