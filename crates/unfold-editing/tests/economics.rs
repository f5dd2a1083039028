//! The economics the editor shows: what the model is shown first against every section in full,
//! the disclosure tool's cost, what reading each section adds.

use unfold_documents::template::Template;
use unfold_editing::economics::disclosure_economics;
use unfold_engine::tokens::count_text;

fn example(name: &str) -> Template {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    Template::load(&path).expect("the example loads")
}

/// The coding agent's figures, as README and `examples/README.md` give them.
#[test]
fn the_coding_agent_shows_1236_of_18854_tokens_first_and_what_each_area_costs_to_read() {
    let economics = disclosure_economics(&example("coding-agent.unfold.json"), &[]).unwrap();
    assert_eq!((economics.first_tokens, economics.all_full_tokens), (1236, 18854));
    let paths: Vec<&str> = economics.sections.iter().map(|section| section.path.as_str()).collect();
    assert_eq!(paths.len(), 8, "eight summarized areas: {paths:?}");
    assert!(economics.sections.iter().all(|section| section.read_tokens > 0 && section.tools > 0), "{economics:?}");
    assert_eq!(economics.sections_left_out, 0);
    let read_section = &economics.disclosure_tools;
    assert_eq!(read_section.len(), 1);
    assert_eq!(read_section[0].name, "read_section");
    assert!(read_section[0].tokens > 20, "{read_section:?}");
}

/// A short section summarized can make the prompt longer: the read_section definition is sent
/// with it, and the economics say so.
#[test]
fn summarizing_a_short_section_costs_the_read_section_definition() {
    let template: Template = Template::from_json(
        br#"{"schema_version": 1, "kind": "unfold.template", "key": "t", "name": "T",
             "sections": [
               {"key": "task", "title": "Task", "template": "Do it."},
               {"key": "style", "title": "Style", "template": "Be brief.", "summary": "How to write.", "visibility": "summary"}
             ]}"#,
    )
    .unwrap();
    let economics = disclosure_economics(&template, &[]).unwrap();
    assert!(economics.first_tokens > economics.all_full_tokens, "{economics:?}");
    assert_eq!(economics.disclosure_tools[0].name, "read_section");
    assert_eq!(economics.disclosure_tools[0].tokens, 67, "the definition is most of why: {economics:?}");
    // Reading it brings the text in, and the summary note and read_section go.
    assert_eq!(economics.sections[0].path, "style");
    assert!(economics.sections[0].read_tokens < 0, "{economics:?}");
}

/// Each section's own size both ways, as the editor shows it beside the section: its heading and
/// body in full (its subsections not included), its summary with the line naming the tool, and
/// its own tools.
#[test]
fn every_section_is_sized_in_full_summarized_and_by_its_tools() {
    let template: Template = Template::from_json(
        br#"{"schema_version": 1, "kind": "unfold.template", "key": "t", "name": "T",
             "sections": [
               {"key": "task", "title": "Task", "template": "Do it for ${who}.",
                "children": [{"key": "steps", "title": "Steps", "template": "First look, then leap."}]},
               {"key": "search", "title": "Search", "template": "Search the docs.", "summary": "Searching.",
                "visibility": "summary",
                "tools": [{"name": "search", "description": "Searches the docs.",
                           "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]}
             ],
             "params": {"who": "the team"}}"#,
    )
    .unwrap();
    let sizes = disclosure_economics(&template, &[]).unwrap().section_sizes;
    let paths: Vec<&str> = sizes.iter().map(|size| size.path.as_str()).collect();
    assert_eq!(paths, ["task", "task.steps", "search"]);
    let [task, steps, search] = &sizes[..] else { unreachable!() };
    // Rendered as in the prompt (numbered, the parameter's default filled in), the child apart.
    assert_eq!(task.full_tokens as u64, count_text("## 1 Task\n\nDo it for the team."));
    assert_eq!(steps.full_tokens as u64, count_text("### 1.1 Steps\n\nFirst look, then leap."));
    assert_eq!((task.summary_tokens, task.tool_tokens), (None, 0));
    let summarized = "## 2 Search\n\nSearching.\n\n---\n[This section is summarized. To view full content, call `read_section` with key \"search\".]";
    assert_eq!(search.summary_tokens, Some(count_text(summarized) as u32));
    assert!(search.tool_tokens > 10, "{search:?}");
}

/// The sizes add up to about the whole prompt in full: nothing left out, nothing counted twice.
#[test]
fn the_coding_agents_sections_add_up_to_its_prompt_in_full() {
    let economics = disclosure_economics(&example("coding-agent.unfold.json"), &[]).unwrap();
    let own: u32 = economics.section_sizes.iter().map(|size| size.full_tokens + size.tool_tokens).sum();
    let whole = economics.all_full_tokens;
    assert!(own <= whole && own * 100 >= whole * 95, "{own} of {whole}");
}
