#!/usr/bin/env python3
"""Generate reference renderings of Unfold templates with weakincentives 0.27.

For every ``*.unfold.json`` in ``tests/reference/templates/`` this builds the
equivalent ``weakincentives`` prompt (one ``MarkdownSection`` per section, one
``Tool`` per tool) and writes next to the template:

* ``<name>.md``         -- ``Prompt(template).bind(params).render().text`` plus ONE
                           trailing ``"\\n"`` (the library's text never ends with a
                           newline; the Unfold spec wants exactly one);
* ``<name>.tools.json`` -- ``[tool_to_spec(t) for t in rendered.tools]`` (the
                           OpenAI chat tool objects the library builds), with the
                           template-level tools prepended (see below); pretty JSON,
                           2-space indent, non-ASCII kept, trailing newline.

Run (weakincentives is NOT a project dependency; install it in its own venv)::

    ~/.pyenv/versions/3.13.0/bin/python -m venv /work/wi-venv
    /work/wi-venv/bin/pip install 'weakincentives==0.27.*'
    /work/wi-venv/bin/python tests/reference/make_weakincentives_refs.py [--raw-schemas] [TEMPLATE_DIR]

``--raw-schemas`` writes each tool's ``parameters`` exactly as in the template
instead of the schema the library derives (see below); everything else is the same.

Mapping (details and limits: /work/notes/weakincentives.md):

* The library only knows ``heading: keyed`` and ``disclosure: mixed``; a template
  asking for anything else is rejected.
* ``params`` becomes one dataclass shared by every section (so every section has a
  params type; the library's ``read_section`` skips param-less child sections).
* Template-level ``tools`` have no weakincentives equivalent (tools live only on
  sections); they are converted with the same ``tool_to_spec`` and put first,
  as the Unfold spec orders them.
* Tool ``parameters`` (JSON Schema) become a params dataclass; the emitted schema
  is what the library derives from it, NOT the template's schema verbatim: it adds
  ``"additionalProperties": false``, orders ``required`` like ``properties`` and
  drops ``description`` / ``title`` / ``default`` / ``examples`` of properties. A
  note is printed on stderr for every tool whose schema changes.
* ``ns`` may hold ``/`` in Unfold but not in the library; it is mapped to ``.``
  (it does not appear in the output).
"""

from __future__ import annotations

import dataclasses
import json
import keyword
import sys
from pathlib import Path
from typing import Any, Literal

from weakincentives.adapters.tool_spec import tool_to_spec
from weakincentives.prompt import (
    MarkdownSection,
    Prompt,
    PromptTemplate,
    SectionVisibility,
    Tool,
)
from weakincentives.prompt.tool_result import ToolResult

_PRIMITIVES: dict[str, type] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
}
# JSON Schema keywords the library's serde.schema() re-emits from field metadata.
_CONSTRAINTS = (
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
)


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_")) or "Params"


def _type_for(schema: dict[str, Any], name: str) -> Any:
    """Python annotation whose library schema is closest to ``schema``."""
    if "enum" in schema and "type" not in schema:
        return Literal[tuple(schema["enum"])]
    kind = schema.get("type")
    if isinstance(kind, list):  # ["string", "null"] -> str | None -> anyOf
        union: Any = None
        for part in kind:
            part_type = _type_for({**schema, "type": part}, name)
            union = part_type if union is None else union | part_type
        return union
    if kind in _PRIMITIVES:
        return _PRIMITIVES[kind]
    if kind == "array":
        return list[_type_for(schema.get("items", {}), name + "_item")]
    if kind == "object":
        if "properties" in schema:
            return _dataclass_for(schema, _class_name(name))
        return dict[str, Any]
    return Any


def _dataclass_for(schema: dict[str, Any], class_name: str) -> type:
    required = set(schema.get("required", []))
    specs = []
    for index, (prop, sub) in enumerate(schema.get("properties", {}).items()):
        ident = prop if prop.isidentifier() and not keyword.iskeyword(prop) else f"f{index}"
        metadata: dict[str, Any] = {k: sub[k] for k in _CONSTRAINTS if k in sub}
        if "enum" in sub and "type" in sub:
            metadata["enum"] = sub["enum"]
        if ident != prop:
            metadata["alias"] = prop
        if prop in required:
            fld = dataclasses.field(metadata=metadata)
        else:
            fld = dataclasses.field(default=None, metadata=metadata)
        specs.append((ident, _type_for(sub, prop), fld))
    return dataclasses.make_dataclass(class_name, specs, kw_only=True, frozen=True)


def _stub_handler(params: Any, *, context: Any) -> ToolResult[None]:
    del params, context
    return ToolResult.ok(None)


RAW_SCHEMAS = False
TOOL_SPECS: dict[str, dict[str, Any]] = {}  # tool name -> its Unfold JSON (per template)


def to_spec(tool: Tool[Any, Any], spec: dict[str, Any] | None) -> dict[str, Any]:
    """OpenAI chat tool object; with --raw-schemas, a user tool keeps its own schema."""
    out = tool_to_spec(tool)
    if RAW_SCHEMAS and spec is not None:
        out["function"]["parameters"] = spec.get("parameters", {})
    return out


def build_tool(spec: dict[str, Any]) -> Tool[Any, Any]:
    params_type = _dataclass_for(spec.get("parameters", {}), _class_name(spec["name"]) + "Params")
    tool = Tool[params_type, None](  # type: ignore[valid-type]
        name=spec["name"], description=spec["description"], handler=_stub_handler
    )
    TOOL_SPECS[tool.name] = spec
    emitted = tool_to_spec(tool)["function"]["parameters"]
    if emitted != spec.get("parameters") and not RAW_SCHEMAS:
        print(
            f"note: tool {spec['name']!r}: library schema differs from the template's\n"
            f"  template: {json.dumps(spec.get('parameters'))}\n"
            f"  library : {json.dumps(emitted)}",
            file=sys.stderr,
        )
    return tool


def build_section(spec: dict[str, Any], params_type: type) -> MarkdownSection[Any]:
    visibility = SectionVisibility(spec.get("visibility", "full"))
    return MarkdownSection[params_type](  # type: ignore[valid-type]
        title=spec["title"],
        key=spec["key"],
        template=spec.get("template", ""),
        summary=spec.get("summary"),
        visibility=visibility,
        tools=[build_tool(t) for t in spec.get("tools", [])],
        children=[build_section(c, params_type) for c in spec.get("children", [])],
    )


def build_template(doc: dict[str, Any]) -> tuple[PromptTemplate[Any], Any]:
    """Return the library's prompt template for ``doc`` and its bound parameters."""
    values = doc.get("params", {})
    fields = [(name, type(value), dataclasses.field(default=value)) for name, value in values.items()]
    params_type = dataclasses.make_dataclass("Params", fields, frozen=True)
    template = PromptTemplate(
        ns=doc.get("ns", "unfold").replace("/", "."),
        key=doc["key"],
        name=doc.get("name"),
        sections=[build_section(s, params_type) for s in doc.get("sections", [])],
    )
    return template, params_type(**values)


def render(doc: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """Return (markdown without trailing newline, OpenAI tool objects)."""
    heading = doc.get("heading", "plain")
    disclosure = doc.get("disclosure", "read_section")
    if heading != "keyed" or disclosure != "mixed":
        raise SystemExit(
            f"{doc.get('key')}: weakincentives renders only heading=keyed, disclosure=mixed "
            f"(got heading={heading}, disclosure={disclosure})"
        )
    TOOL_SPECS.clear()
    template, params = build_template(doc)
    rendered = Prompt(template).bind(params).render()
    template_tools = [to_spec(build_tool(t), t) for t in doc.get("tools", [])]
    # Builtins (read_section, open_sections) are not in TOOL_SPECS.
    tools = template_tools + [to_spec(t, TOOL_SPECS.get(t.name)) for t in rendered.tools]
    names = [t["function"]["name"] for t in tools]
    if len(names) != len(set(names)):
        raise SystemExit(f"{doc['key']}: duplicate tool names {names}")
    return rendered.text, tools


def main() -> None:
    global RAW_SCHEMAS
    args = sys.argv[1:]
    if "--raw-schemas" in args:
        RAW_SCHEMAS = True
        args.remove("--raw-schemas")
    here = Path(__file__).resolve().parent
    template_dir = Path(args[0]) if args else here / "templates"
    paths = sorted(template_dir.glob("*.unfold.json"))
    if not paths:
        raise SystemExit(f"no *.unfold.json in {template_dir}")
    for path in paths:
        doc = json.loads(path.read_text(encoding="utf-8"))
        text, tools = render(doc)
        stem = path.name[: -len(".unfold.json")]
        (template_dir / f"{stem}.md").write_text(text + "\n", encoding="utf-8")
        (template_dir / f"{stem}.tools.json").write_text(
            json.dumps(tools, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        names = ", ".join(t["function"]["name"] for t in tools) or "-"
        print(f"{path.name}: {len(text)} chars, tools: {names}", flush=True)


if __name__ == "__main__":
    main()
