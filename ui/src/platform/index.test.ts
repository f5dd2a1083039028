// Tests for the platform wrappers over mocked bindings: arguments pass through unchanged, command
// errors keep their code, and framework failures or throws become `ipc_failed` instead of throwing.
import { beforeEach, describe, expect, it, vi } from "vitest";

const commands = vi.hoisted(() => ({
  applyEdit: vi.fn(),
  importTools: vi.fn(),
  previewDocument: vi.fn(),
  saveDocument: vi.fn(),
}));
vi.mock("../bindings", () => ({ commands }));
vi.mock("@tauri-apps/api/core", () => ({ isTauri: () => false }));

const { applyEdit, importTools, previewDocument, saveDocument } = await import("./index");

beforeEach(() => {
  vi.resetAllMocks();
});

describe("platform", () => {
  it("passes arguments through and returns the value", async () => {
    commands.applyEdit.mockResolvedValue({ status: "ok", data: { id: 3 } });
    const edit = { op: "rename_section", path: "task", key: "job" } as const;
    expect(await applyEdit(3, edit, "g")).toEqual({ ok: true, value: { id: 3 } });
    expect(commands.applyEdit).toHaveBeenCalledWith(3, edit, "g");
  });

  it("keeps a command's error with its code", async () => {
    const error = { code: "invalid_edit", message: "no", problems: [] };
    commands.saveDocument.mockResolvedValue({ status: "error", error });
    expect(await saveDocument(1, null)).toEqual({ ok: false, error });
    expect(commands.saveDocument).toHaveBeenCalledWith(1, null);
  });

  it("turns a bare string rejection (ACL denial) and a throw into ipc_failed", async () => {
    commands.previewDocument.mockResolvedValueOnce({ status: "error", error: "preview_document not allowed" });
    expect(await previewDocument(1, [], true, null)).toEqual({
      ok: false,
      error: { code: "ipc_failed", message: "preview_document not allowed" },
    });
    commands.previewDocument.mockRejectedValueOnce(new Error("IPC down"));
    expect(await previewDocument(1, ["a"], false, 3)).toEqual({
      ok: false,
      error: { code: "ipc_failed", message: "IPC down" },
    });
  });

  it("reads pasted tools and keeps their problems' places", async () => {
    const imported = { format: "Anthropic", tools: [], conflicts: [] };
    commands.importTools.mockResolvedValueOnce({ status: "ok", data: imported });
    expect(await importTools(2, "[]")).toEqual({ ok: true, value: imported });
    expect(commands.importTools).toHaveBeenCalledWith(2, "[]");
    const error = { code: "invalid_tools", message: "/0: not a tool", problems: [{ location: "/0", message: "not a tool" }] };
    commands.importTools.mockResolvedValueOnce({ status: "error", error });
    expect(await importTools(2, "[1]")).toEqual({ ok: false, error });
  });
});
