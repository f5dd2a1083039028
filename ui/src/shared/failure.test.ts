// Tests for failure.ts: the title of each backend error, with its message.
import { describe, expect, it } from "vitest";
import type { ErrorCode } from "../platform";
import { describeError } from "./failure";

describe("describeError", () => {
  it("keeps the backend message, which names the file", () => {
    expect(
      describeError({ code: "invalid_template", message: "/t/broken.json:1:2: expected value", problems: [] }),
    ).toEqual({
      title: "This template cannot be opened",
      detail: "/t/broken.json:1:2: expected value",
    });
  });

  it("tells an unreadable file from an invalid one", () => {
    expect(describeError({ code: "unreadable_file", message: "/t/a.json: cannot read", problems: [] }).title).toBe(
      "This template cannot be read",
    );
  });

  it("gives every error code its own title", () => {
    // A record over the generated ErrorCode: a code added in Rust fails to compile here until listed.
    const every: Record<ErrorCode, true> = {
      unreadable_file: true,
      invalid_template: true,
      invalid_scenario: true,
      invalid_profiles: true,
      invalid_tools: true,
      invalid_edit: true,
      invalid_request: true,
      unknown_document: true,
      not_found: true,
      unavailable: true,
      cancelled: true,
      provider: true,
      internal: true,
    };
    const codes = Object.keys(every) as ErrorCode[];
    const titles = codes.map((code) => describeError({ code, message: "m", problems: [] }).title);
    expect(new Set(titles).size).toBe(codes.length);
  });

  it("says when the backend could not be reached", () => {
    expect(describeError({ code: "ipc_failed", message: "command not allowed" }).title).toBe(
      "The app could not reach its backend",
    );
  });
});
