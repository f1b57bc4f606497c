import { ensureBuild } from "./faults-setup.ts";

/** Playwright's global set-up for playwright.faults.config.ts: the build its specs start. */
export default function setup() {
  process.env.BUILD_DIR = ensureBuild();
}
