// How lanes are named, as requests and reports name them. Pure: importing it does not load the
// bindings (the tests' setup draws views that name lanes before a test mocks the backend).
import type { Lane } from "../bindings";

/** The lane of the host profile `host`: `host:claude-code`. */
export function hostLane(host: string): Lane {
  return `host:${host}`;
}

/** The lane of the real agent host `host`, run against the template (the host lab): `real:openai-agents`. */
export function realHostLane(host: string): Lane {
  return `real:${host}`;
}
