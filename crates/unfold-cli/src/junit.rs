//! The JUnit XML of a test run, as CI dashboards read it: a `testsuite` per suite, a `testcase`
//! per case, and a `failure` under each failed one listing what did not hold.

use std::fmt::Write;

use unfold_application::suites::CaseOutcome;

/// "dynamic model_calls: expected at most 3, saw 4", or why the case could not run.
pub fn failure_lines(outcome: &CaseOutcome) -> Vec<String> {
    let unmet = outcome.unmet.iter().map(|u| {
        let what = if u.run == u.what { u.what.clone() } else { format!("{} {}", u.run, u.what) };
        format!("{what}: expected {}, saw {}", u.expected, u.seen)
    });
    outcome.error.iter().map(|e| format!("error: {e}")).chain(unmet).collect()
}

/// The whole document.
pub fn document(outcomes: &[CaseOutcome]) -> String {
    let mut suites: Vec<(&str, Vec<&CaseOutcome>)> = Vec::new();
    for outcome in outcomes {
        match suites.iter_mut().find(|(name, _)| *name == outcome.suite) {
            Some((_, cases)) => cases.push(outcome),
            None => suites.push((&outcome.suite, vec![outcome])),
        }
    }
    let failures = outcomes.iter().filter(|o| !o.passed()).count();
    let time: f64 = outcomes.iter().map(|o| o.took.as_secs_f64()).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"unfold\" tests=\"{}\" failures=\"{failures}\" time=\"{time:.3}\">",
        outcomes.len()
    );
    for (name, cases) in suites {
        let failed = cases.iter().filter(|o| !o.passed()).count();
        let time: f64 = cases.iter().map(|o| o.took.as_secs_f64()).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\" time=\"{time:.3}\">",
            escape(name),
            cases.len()
        );
        for case in cases {
            let head = format!(
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                escape(name),
                escape(&case.name),
                case.took.as_secs_f64()
            );
            let lines = failure_lines(case);
            if lines.is_empty() {
                let _ = writeln!(out, "{head}/>");
                continue;
            }
            let _ = writeln!(out, "{head}>");
            let _ = writeln!(
                out,
                "      <failure message=\"{}\">{}</failure>",
                escape(&lines[0]),
                escape(&lines.join("\n"))
            );
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Text as XML character data or an attribute value; characters XML 1.0 cannot hold are dropped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}
