"""The API's documentation page, ``/api/docs``: the service's own OpenAPI document rendered by jinja2 in the
pages' look and under their Content-Security-Policy. Nothing is loaded from elsewhere (Swagger UI and ReDoc load
their scripts and styles from a CDN, so on a club server without internet they were a blank page)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup, escape

from cribstats.service.auth import session_holder
from cribstats.service.pages import render

router = APIRouter(include_in_schema=False)
DOCS_PATH = "/api/docs"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    where: str
    type: str
    required: bool
    description: Markup


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of the document as the page lists it."""

    anchor: str
    method: str
    path: str
    summary: str
    description: Markup
    key: str
    parameters: list[Parameter]
    body: list[tuple[str, str]]
    responses: list[tuple[str, str, str]]


@router.get(DOCS_PATH, response_class=HTMLResponse)
def api_docs(request: Request) -> Response:
    """The document's operations, each with its parameters, body, answers and the key it needs."""
    document = request.app.openapi()
    return render(request, "apidocs.html.j2", title="API", holder=session_holder(request), info=document["info"],
                  openapi_url=request.app.openapi_url, operations=operations(document),
                  request_base=str(request.base_url).rstrip("/"))  # fmt: skip


def code_spans(text: str) -> Markup:
    """A description's text, escaped, with its `back-quoted` spans as code."""
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text))))


def operations(document: dict[str, Any]) -> list[Operation]:
    """Every operation of an OpenAPI document, in its order."""
    components = document.get("components", {}).get("schemas", {})
    found = []
    for path, item in document.get("paths", {}).items():
        for method in (m for m in METHODS if m in item):
            op = item[method]
            parameters = [Parameter(p["name"], p["in"], type_text(p.get("schema", {}), components),
                                    bool(p.get("required")), code_spans(p.get("description", "")))
                          for p in op.get("parameters", [])]  # fmt: skip
            body = [(media, type_text(content.get("schema", {}), components))
                    for media, content in op.get("requestBody", {}).get("content", {}).items()]  # fmt: skip
            responses = [(status, answer.get("description", ""),
                          "; ".join(f"{media}: {type_text(c.get('schema', {}), components)}"
                                    for media, c in answer.get("content", {}).items()))
                         for status, answer in sorted(op.get("responses", {}).items())]  # fmt: skip
            described = code_spans(op.get("description", ""))
            found.append(Operation(op.get("operationId") or f"{method}-{path}", method.upper(), path,
                                   op.get("summary", ""), described, _key(op, document), parameters, body,
                                   responses))  # fmt: skip
    return found


def _key(operation: dict[str, Any], document: dict[str, Any]) -> str:
    """What the operation asks of a key, from its ``security`` (an empty choice: the key is optional)."""
    security = operation.get("security", document.get("security", []))
    if not security:
        return "none"
    return "needed only when the server is private" if {} in security else "needed"


def type_text(schema: dict[str, Any], components: dict[str, Any]) -> str:
    """A schema in a few words: ``integer, 1 to 500, default 50``, ``string (date)``, ``Page[GameItem]``."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return str(components.get(name, {}).get("title", name))
    choices = schema.get("anyOf") or schema.get("oneOf")
    if choices:
        words = " or ".join(type_text(c, components) for c in choices if c.get("type") != "null")
    elif schema.get("type") == "array":
        words = "list of " + type_text(schema.get("items", {}), components)
    elif "enum" in schema:
        words = "one of " + ", ".join(str(v) for v in schema["enum"])
    elif schema.get("type") == "object" and "properties" in schema:
        words = "form with " + ", ".join(f"{name} ({type_text(field, components)})"
                                         for name, field in schema["properties"].items())  # fmt: skip
    elif schema.get("format") == "binary":
        words = "file"
    elif "type" in schema:
        words = str(schema["type"]) + (f" ({schema['format']})" if "format" in schema else "")
    else:
        words = "any JSON" if not schema else "object"
    limits = []
    if "minimum" in schema and "maximum" in schema:
        limits.append(f"{schema['minimum']} to {schema['maximum']}")
    elif "minimum" in schema or "maximum" in schema:
        limits.append(f"at least {schema['minimum']}" if "minimum" in schema else f"at most {schema['maximum']}")
    if "maxLength" in schema:
        limits.append(f"at most {schema['maxLength']} characters")
    if "default" in schema and schema["default"] is not None:
        default = schema["default"]
        limits.append(f"default {str(default).lower() if isinstance(default, bool) else default}")
    return ", ".join([words, *limits])
