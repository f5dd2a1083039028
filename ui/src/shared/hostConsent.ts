// Consent to start real agent hosts (the host lab), as Run on the compare page and Probe on the
// Hosts page ask for it, and the hosts the app can start at all: which of the hosts the user has not allowed as they are defined now, with
// what starting each runs, and allowing them, one after another, as they were shown.
import type { HostView, Platform } from "../platform";
import { failureOf, type Failure } from "./failure";

/**
 * The hosts the app can start (a comparison's real host lanes, the probe): installed, with a
 * program of their own; `command` runs a program the command line names, which the app cannot take.
 */
export function startableHosts(hosts: readonly HostView[]): HostView[] {
  return hosts.filter((host) => host.program !== null && host.name !== "command");
}

/** The question about real hosts the user has not allowed yet (see `RunHostsDialog`). */
export interface HostsQuestion {
  /** Each host, and what starting it runs (its program, arguments and environment, a line each). */
  hosts: { name: string; question: string }[];
  /** The answer is being kept. */
  allowing: boolean;
  /** Why allowing failed, if it did. */
  failure: Failure | null;
}

/**
 * The question about the hosts of `names` not allowed yet: none when every one is; a failure when
 * one cannot be asked about (not installed, unknown).
 */
export async function askAboutHosts(
  platform: Platform,
  names: readonly string[],
): Promise<{ question: HostsQuestion | null } | { failure: Failure }> {
  const hosts: { name: string; question: string }[] = [];
  for (const name of names) {
    const read = await platform.realHostQuestion(name);
    if (!read.ok) return { failure: failureOf(`${name} cannot run`, read.error) };
    if (read.value !== null) hosts.push({ name, question: read.value });
  }
  return { question: hosts.length === 0 ? null : { hosts, allowing: false, failure: null } };
}

/** Allows each host `question` lists, as it was shown; why one was not allowed, if one was not. */
export async function allowHosts(platform: Platform, question: HostsQuestion): Promise<Failure | null> {
  for (const { name } of question.hosts) {
    const allowed = await platform.allowRealHost(name);
    if (!allowed.ok) return failureOf(`${name} was not allowed`, allowed.error);
  }
  return null;
}
