// The question asked when Run (a comparison) or Probe (the Hosts page) would start real agent hosts
// (the host lab) the user has not allowed as they are defined now: each one, with exactly what
// starting it runs (its program, its arguments and its whole environment; `{run}`, `{port}` and the
// other placeholders are filled for each run). Allow and run allows them all and runs; Cancel, which
// has the focus, or Escape runs nothing. A refused Allow is shown here, and nothing runs. The
// answers are the asking page's store's (see hostConsent.ts).
import type { HostsQuestion } from "./hostConsent";
import { ModalDialog } from "./ModalDialog";
import { RunQuestionAnswers } from "./RunQuestionAnswers";

export function RunHostsDialog({
  question,
  onAllow,
  onCancel,
}: {
  question: HostsQuestion;
  onAllow: () => void;
  onCancel: () => void;
}) {
  const { hosts, allowing, failure } = question;
  const one = hosts.length === 1 ? hosts[0] : undefined;
  const title = one === undefined ? `Start ${String(hosts.length)} agent hosts?` : `Start agent host '${one.name}'?`;
  return (
    <ModalDialog
      role="alertdialog"
      titleId="run-hosts-title"
      testId="run-hosts-dialog"
      className="run-sources-dialog"
      onEscape={onCancel}
    >
      {(focusFirst) => (
        <>
          <h2 id="run-hosts-title">{title}</h2>
          <p>
            A real host runs as a program on this machine, in a throwaway home, against the template served over MCP and
            a scripted model. It gets this environment and nothing else, and is stopped with all it started when it ends
            or after 120 s.
          </p>
          <ul className="run-sources-list">
            {hosts.map((host) => (
              <li key={host.name} data-testid="run-host" data-name={host.name}>
                <div className="run-source-head">
                  <strong>{host.name}</strong>
                </div>
                <pre className="run-source-starts" data-testid="run-host-starts">
                  {host.question}
                </pre>
              </li>
            ))}
          </ul>
          <p className="notice">
            Allowing keeps the answer until what the host runs changes; the command line uses it too.
          </p>
          <RunQuestionAnswers
            testId="run-hosts"
            allowing={allowing}
            failure={failure}
            focusFirst={focusFirst}
            onAllow={onAllow}
            onCancel={onCancel}
          />
        </>
      )}
    </ModalDialog>
  );
}
