// Entry point: loads the bundled fonts and the stylesheets, and mounts <App> with the real Tauri platform.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./shell/App";
import { preloadDeferredViews } from "./shell/deferredViews";
import { tauriPlatform } from "./platform";
import { WorkspaceStore } from "./shell/workspace";
import "@fontsource-variable/inter";
import "@fontsource-variable/jetbrains-mono";
import "./index.css";
import "./shared/controls.css";

// Linux gets its own font families (index.css says why).
if (navigator.userAgent.includes("Linux")) document.documentElement.dataset.os = "linux";

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root element");

// Started before React draws the first screen: the template the app was launched on is opened, and
// its preview asked for, while React is busy drawing (about 20 ms sooner at start).
const workspace = new WorkspaceStore(tauriPlatform);
void workspace.start().finally(() => {
  // The views a start does not show are loaded once its first screen is painted (a task queued
  // from a frame's callback runs after that frame), not while it is being drawn.
  requestAnimationFrame(() => {
    setTimeout(() => void preloadDeferredViews(), 0);
  });
});

createRoot(root).render(
  <StrictMode>
    <App platform={tauriPlatform} workspace={workspace} />
  </StrictMode>,
);
