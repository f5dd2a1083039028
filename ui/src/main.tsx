// Entry point: mounts <App> with the real Tauri platform.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { tauriPlatform } from "./platform";
import "./index.css";

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <App platform={tauriPlatform} />
  </StrictMode>,
);
