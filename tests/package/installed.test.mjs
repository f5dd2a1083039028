// The installed Debian package (scripts/check-deb.sh builds it with Tauri's bundler, installs it with
// dpkg -i, then runs this with UNFOLD_PACKAGE set to the .deb and UNFOLD_APP to the installed app):
// what the package declares and installs, the installed command line, and the installed app started
// under Xvfb on the example, its window showing the template.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { APP, EXAMPLE, ROOT, saveScreenshot, startHarness, stopHarness, waitFor, waitUntil, withApp } from "../e2e/harness.mjs";

const PACKAGE = process.env.UNFOLD_PACKAGE;

function run(program, args) {
  return execFileSync(program, args, { encoding: "utf8", cwd: ROOT });
}

const field = (name) => run("dpkg-deb", ["--field", PACKAGE, name]).trim();

describe("the installed package", () => {
  before(() => {
    assert.ok(PACKAGE, "UNFOLD_PACKAGE names the .deb (scripts/check-deb.sh sets it)");
    assert.equal(APP, "/usr/bin/unfold-app", "UNFOLD_APP is the installed app");
  });

  it("declares its name, the workspace's version and the libraries the webview and the run history need", () => {
    const version = readFileSync(`${ROOT}/Cargo.toml`, "utf8").match(/^version = "(.+)"$/m)[1];
    assert.equal(field("Version"), version);
    assert.equal(field("Architecture"), "amd64");
    const depends = field("Depends");
    for (const library of ["libwebkit2gtk-4.1-0", "libgtk-3-0", "libsqlite3-0"]) assert.match(depends, new RegExp(library));
    const status = run("dpkg-query", ["--show", "--showformat=${Status}", field("Package")]);
    assert.equal(status, "install ok installed");
  });

  it("installs the app, the command line, a menu entry and icons", () => {
    const files = run("dpkg", ["-L", field("Package")]).split("\n");
    assert.ok(files.includes("/usr/bin/unfold-app"), files.join("\n"));
    assert.ok(files.includes("/usr/bin/unfold"), files.join("\n"));
    const desktop = files.find((f) => f.startsWith("/usr/share/applications/") && f.endsWith(".desktop"));
    assert.ok(desktop, "a .desktop file");
    const entry = readFileSync(desktop, "utf8");
    assert.match(entry, /^Exec=unfold-app/m);
    assert.match(entry, /^Name=Unfold$/m);
    assert.ok(files.some((f) => f.startsWith("/usr/share/icons/") && f.endsWith(".png")), "an icon");
  });

  it("installs the licences of the fonts the app bundles (SIL Open Font License)", () => {
    for (const font of ["Inter", "JetBrainsMono"]) {
      const licence = readFileSync(`/usr/share/doc/unfold/fonts/${font}-LICENSE.txt`, "utf8");
      assert.match(licence, /SIL Open Font License, Version 1\.1/, font);
    }
  });

  it("has a command line that renders the example", () => {
    const markdown = run("/usr/bin/unfold", ["render", EXAMPLE]);
    assert.match(markdown, /^## 1 Task\n/);
  });
});

describe("the installed app (under Xvfb)", () => {
  before(startHarness);
  after(stopHarness);

  it("opens its window on the example template", async (t) => {
    await withApp(t, EXAMPLE, async (session) => {
      const rows = await waitUntil(
        session,
        `return [...document.querySelectorAll('[data-testid="section-row"]')].map((row) => row.dataset.path);`,
        (paths) => Array.isArray(paths) && paths.length > 0,
        "the section tree",
      );
      assert.deepEqual(rows.slice(0, 2), ["task", "context"]);
      const markdown = await waitFor(session, '[data-testid="preview-markdown"]');
      assert.match(markdown, /^## 1 Task\n\nComplete the following: Refactor the authentication module/);
      await saveScreenshot(session, "installed-app");
    });
  });
});
