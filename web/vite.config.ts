// Vite configuration of the web app; scripts/build_web.ts builds with it.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Rolldown reports its plugins' timings as a warning when the build is
    // slow (a busy machine): nothing a person starting the server can act on.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  logLevel: "warn",
});
