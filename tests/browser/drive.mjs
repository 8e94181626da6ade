#!/usr/bin/env node
// Drives headless Chromium (Debian's, through playwright-core) through a
// plan of steps and prints what each step found, for the browser tests of
// `tfr report` and `tfr view` (tests/cli/util.rs: browser()).
//
//   node tests/browser/drive.mjs PLAN.json
//
// PLAN.json:
//   {
//     "timeout_ms": 10000,          // per step (default 10000)
//     "deadline_ms": 120000,        // the whole run (default 120000)
//     "viewport": {"width": 1300, "height": 900},   // the first page's (default 1280x800)
//     "steps": [
//       {"goto": "file:///tmp/r.html", "until": "load"},   // value: the HTTP status (null for file:)
//       {"viewport": {"width": 700, "height": 900}},
//       {"wait": "svg.ov rect", "state": "attached"},      // value: how many match then
//       {"wait_for": "document.images.length > 3"},        // a JS expression, until truthy; value: its value
//       {"press": "ArrowRight"},                           // optional "selector": focus that first
//       {"click": "#next"},
//       {"fill": "#jump", "text": "42"},
//       {"eval": "[...document.querySelectorAll('rect')].map(r => r.textContent)"},  // value: the JSON result
//       {"count": "svg.ov rect"},                          // value: the number of matches
//       {"text": "#status"},                               // value: innerText of the first match (null: none)
//       {"screenshot": "/tmp/shot.png", "full_page": true, "selector": "#grid"},  // value: {path, bytes}
//       {"sleep_ms": 100}
//     ]
//   }
//   Any step may carry "as": "NAME": its value is also put under "named".
//
// Prints one JSON object on stdout:
//   {"results": [value of each step], "named": {NAME: value},
//    "page_errors": [uncaught exceptions], "console_errors": [console.error texts],
//    "http_errors": [{"url", "status"} for responses >= 400],
//    "failed_requests": [{"url", "error"}], "chromium": "VERSION"}
// On failure: one line on stderr, "drive: step N (ACTION ...): what went wrong",
// exit 1; exit 3 when a prerequisite is missing (node module, Chromium).
//
// playwright-core comes from $TFR_NPM_BROWSER (default: target/npm-browser
// of this repository, where .ci/run installs it); Chromium is $TFR_CHROMIUM,
// else the first of chromium, chromium-browser, google-chrome on PATH.
// Each run starts a fresh browser with a fresh temporary profile.

import { createRequire } from "node:module";
import { existsSync, readFileSync, statSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

function die(code, message) {
  process.stderr.write(`drive: ${String(message).replace(/\s+/g, " ").trim().slice(0, 2000)}\n`);
  process.exit(code);
}

function findChromium() {
  if (process.env.TFR_CHROMIUM) return process.env.TFR_CHROMIUM;
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    for (const dir of (process.env.PATH || "").split(delimiter)) {
      const p = join(dir || ".", name);
      if (existsSync(p)) return p;
    }
  }
  return null;
}

function loadPlaywright() {
  const dir = resolve(process.env.TFR_NPM_BROWSER || join(here, "..", "..", "target", "npm-browser"));
  try {
    return createRequire(join(dir, "package.json"))("playwright-core");
  } catch (e) {
    die(3, `missing: playwright-core in ${dir} (.ci/run installs it): ${e.message}`);
  }
}

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

const ACTIONS = [
  "goto", "viewport", "wait", "wait_for", "press", "click", "fill",
  "eval", "count", "text", "screenshot", "sleep_ms",
];

function actionOf(step) {
  const has = (k) => Object.prototype.hasOwnProperty.call(step, k);
  // "text" is fill's argument as well as an action of its own.
  const found = ACTIONS.filter((a) => has(a) && !(a === "text" && has("fill")));
  if (found.length !== 1) {
    throw new Error(`a step needs exactly one of ${ACTIONS.join(", ")}; got ${JSON.stringify(step)}`);
  }
  return found[0];
}

async function run(page, step, action, timeout) {
  const arg = step[action];
  switch (action) {
    case "goto": {
      const r = await page.goto(arg, { waitUntil: step.until || "load", timeout });
      return r ? r.status() : null;
    }
    case "viewport":
      await page.setViewportSize({ width: arg.width, height: arg.height });
      return null;
    case "wait":
      await page.waitForSelector(arg, { state: step.state || "attached", timeout });
      return await page.locator(arg).count();
    case "wait_for": {
      // Polled from here with page.evaluate, not page.waitForFunction:
      // that one evaluates a string predicate with eval inside the page,
      // which a Content-Security-Policy without 'unsafe-eval' refuses
      // (tfr view's page).
      const end = Date.now() + timeout;
      for (;;) {
        const v = await page.evaluate(arg);
        if (v) return v;
        if (Date.now() > end) throw new Error(`not true within ${timeout} ms (last value: ${JSON.stringify(v)})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    case "press":
      if (step.selector) await page.focus(step.selector, { timeout });
      await page.keyboard.press(arg);
      return null;
    case "click":
      await page.click(arg, { timeout });
      return null;
    case "fill":
      await page.fill(arg, String(step.text ?? ""), { timeout });
      return null;
    case "eval": {
      const v = await page.evaluate(arg);
      return v === undefined ? null : v;
    }
    case "count":
      return await page.locator(arg).count();
    case "text": {
      const l = page.locator(arg);
      return (await l.count()) ? await l.first().innerText({ timeout }) : null;
    }
    case "screenshot": {
      const opts = { path: arg, timeout, fullPage: !!step.full_page };
      if (step.selector) await page.locator(step.selector).first().screenshot({ path: arg, timeout });
      else await page.screenshot(opts);
      return { path: arg, bytes: statSync(arg).size };
    }
    case "sleep_ms":
      await new Promise((r) => setTimeout(r, Number(arg)));
      return null;
  }
  return null;
}

function describe(step, action) {
  const arg = JSON.stringify(step[action]);
  return `${action} ${arg.length > 120 ? arg.slice(0, 117) + "..." : arg}`;
}

async function main() {
  if (process.argv.length !== 3) die(2, "usage: node drive.mjs PLAN.json");
  let plan;
  try {
    plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
  } catch (e) {
    die(2, `cannot read the plan ${process.argv[2]}: ${e.message}`);
  }
  if (!plan || !Array.isArray(plan.steps)) die(2, "the plan needs a \"steps\" array");
  const { chromium } = loadPlaywright();
  const executablePath = findChromium();
  if (!executablePath) die(3, "missing: Chromium (chromium, chromium-browser or google-chrome on PATH, or TFR_CHROMIUM)");

  const timeout = Number(plan.timeout_ms || 10000);
  const deadline = setTimeout(
    () => die(1, `the whole run took longer than ${plan.deadline_ms || 120000} ms`),
    Number(plan.deadline_ms || 120000),
  );
  const out = {
    results: [], named: {}, page_errors: [], console_errors: [],
    http_errors: [], failed_requests: [], chromium: null,
  };
  let browser;
  try {
    browser = await chromium.launch({ executablePath, headless: true, args: ARGS, timeout: 60000 });
  } catch (e) {
    die(3, `missing: Chromium ${executablePath} does not start: ${e.message.split("\n")[0]}`);
  }
  out.chromium = browser.version();
  let failure = null;
  try {
    const context = await browser.newContext({ viewport: plan.viewport || { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(timeout);
    page.on("pageerror", (e) => out.page_errors.push(String(e.message || e)));
    page.on("console", (m) => { if (m.type() === "error") out.console_errors.push(m.text()); });
    page.on("response", (r) => { if (r.status() >= 400) out.http_errors.push({ url: r.url(), status: r.status() }); });
    page.on("requestfailed", (r) => out.failed_requests.push({ url: r.url(), error: r.failure()?.errorText ?? null }));
    for (const [i, step] of plan.steps.entries()) {
      let action = "step";
      try {
        action = actionOf(step);
        const value = await run(page, step, action, Number(step.timeout_ms || timeout));
        out.results.push(value);
        if (step.as) out.named[step.as] = value;
      } catch (e) {
        failure = `step ${i} (${action === "step" ? "?" : describe(step, action)}): ${String(e.message || e).split("\n")[0]}`;
        if (out.page_errors.length) failure += `; page errors: ${out.page_errors.join(" | ")}`;
        break;
      }
    }
  } finally {
    await browser.close().catch(() => {});
    clearTimeout(deadline);
  }
  if (failure) die(1, failure);
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((e) => die(1, e && e.message ? e.message.split("\n")[0] : e));
