/**
 * Headless Chromium for the run export's check (Debian's `chromium`, installed by `npm test`
 * through scripts/ensure-tools.mjs), driven by playwright-core, which downloads no browser.
 */
import which from "which";
import { chromium } from "playwright-core";

/** Chromium's path, or undefined when none is installed (the tests that need it skip). */
export const CHROMIUM = ["chromium", "chromium-browser", "google-chrome"].map((c) => which.sync(c, { nothrow: true })).find(Boolean) ?? undefined;
if (!CHROMIUM) console.warn("Chromium is not installed (npm test tries to install it): the run export's browser check is skipped.");

/** What the page showed: console errors and uncaught exceptions, and what `look` returned. */
export interface PageVisit<T> {
  readonly errors: string[];
  readonly seen: T;
}

/**
 * Opens `file` in headless Chromium with no network reach (the flags that keep it from calling
 * out), collects every console error and page error (frames included), then runs `look` on the
 * page. Closes the browser whatever happens.
 */
export async function visitPage<T>(file: string, look: (page: import("playwright-core").Page) => Promise<T>): Promise<PageVisit<T>> {
  if (!CHROMIUM) throw new Error("Chromium is not installed");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1150, height: 900 } });
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`file://${file}`, { waitUntil: "load" });
    return { errors, seen: await look(page) };
  } finally {
    await browser.close();
  }
}
