// Vite build and vitest configuration for the Unfold UI (the Tauri shell loads ../ui/dist).
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  // Tauri's dev server expectations: a fixed port, fail instead of silently picking another one.
  clearScreen: false,
  server: {
    port: 1420,
    strictPort: true,
    // The tests' fake backend reads the host presets the core ships, from their files.
    fs: { allow: [".", "../crates/unfold-documents/data/hosts"] },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // WebKitGTK 2.4x (Debian 12) supports ES2021 fully.
    target: "es2021",
    // The app loads its bundle from disk, not a network: CodeMirror in one chunk is fine.
    chunkSizeWarningLimit: 800,
  },
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/testing/setup.ts"],
  },
});
