"""Reads an OTLP JSON file (the file exporter's format: one ExportTraceServiceRequest a line) with
the OpenTelemetry protobuf definitions, strictly (an unknown field or a wrong type fails), and
prints what the Rust tests assert on as JSON: per line, its spans with their kind, parent, times,
attributes and events. Ids are hex in OTLP/JSON where protobuf's JSON mapping has base64: they are
turned over as OTLP receivers do, and their lengths checked.

Usage: python read_otlp.py FILE
"""

import base64
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

ID_FIELDS = {"traceId": 16, "spanId": 8, "parentSpanId": 8}


def ids_to_base64(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ID_FIELDS and isinstance(value, str):
                raw = bytes.fromhex(value)
                if value and len(raw) != ID_FIELDS[key]:
                    raise ValueError(f"{key} {value!r} is {len(raw)} bytes, not {ID_FIELDS[key]}")
                node[key] = base64.b64encode(raw).decode()
            else:
                ids_to_base64(value)
    elif isinstance(node, list):
        for item in node:
            ids_to_base64(item)


def any_value(value):
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [any_value(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: any_value(kv.value) for kv in value.kvlist_value.values}
    return getattr(value, kind) if kind else None


def attributes(list_):
    return {kv.key: any_value(kv.value) for kv in list_}


def main(path):
    lines = []
    with open(path, encoding="utf-8") as file:
        for number, text in enumerate(file, 1):
            if not text.strip():
                continue
            document = json.loads(text)
            ids_to_base64(document)
            request = ExportTraceServiceRequest()
            try:
                json_format.ParseDict(document, request)
            except json_format.ParseError as error:
                raise SystemExit(f"{path}:{number}: {error}")
            for resource_spans in request.resource_spans:
                resource = attributes(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    spans = []
                    for span in scope_spans.spans:
                        if span.start_time_unix_nano > span.end_time_unix_nano:
                            raise SystemExit(f"{path}:{number}: span {span.name} ends before it starts")
                        spans.append({
                            "name": span.name,
                            "trace_id": span.trace_id.hex(),
                            "span_id": span.span_id.hex(),
                            "parent_span_id": span.parent_span_id.hex(),
                            "kind": span.kind,
                            "start": span.start_time_unix_nano,
                            "end": span.end_time_unix_nano,
                            "attributes": attributes(span.attributes),
                            "events": [
                                {"name": e.name, "time": e.time_unix_nano, "attributes": attributes(e.attributes)}
                                for e in span.events
                            ],
                            "status": {"code": span.status.code, "message": span.status.message},
                        })
                    lines.append({"resource": resource, "scope": scope_spans.scope.name, "spans": spans})
    json.dump(lines, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
