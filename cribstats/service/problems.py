"""Errors as RFC 9457 problem details (``application/problem+json``), with the place in the input where there is
one: ``errors`` lists each refused game's file, place and reason, or each bad parameter; and the JSON every
answer is written in (:class:`VisibleJSONResponse`)."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from cribstats.safetext import json_visible

PROBLEM_TYPE = "application/problem+json"
TITLES = {
    400: "Bad input",
    401: "A key is needed",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflicting game",
    413: "Content too large",
    415: "Unsupported media type",
    422: "Bad parameter",
    500: "Server error",
    503: "Store unavailable",
}


class ProblemPlace(BaseModel):
    """Where one problem is: a file (or upload part) and the place in it, or a request parameter."""

    file: str | None = Field(default=None, description="The uploaded file (the part's file name) or request part.")
    place: str | None = Field(default=None, description="The place in it: `line 12`, `[3]`, `row 4`, a parameter.")
    detail: str


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str | None = None
    errors: list[ProblemPlace] = Field(default_factory=list)


class ProblemError(Exception):
    """Raised anywhere in a request to answer with a problem."""

    def __init__(self, status: int, detail: str, errors: list[ProblemPlace] | None = None,
                 headers: dict[str, str] | None = None) -> None:  # fmt: skip
        super().__init__(detail)
        self.status, self.detail, self.errors, self.headers = status, detail, errors or [], headers


def problem(status: int, detail: str, instance: str | None = None,
            errors: list[ProblemPlace] | None = None) -> Problem:  # fmt: skip
    return Problem(title=TITLES.get(status, "Error"), status=status, detail=detail, instance=instance,
                   errors=errors or [])  # fmt: skip


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` entries for these problem statuses."""
    return {
        status: {"model": Problem, "description": TITLES[status], "content": {PROBLEM_TYPE: {}}}
        for status in statuses
    }


class VisibleJSONResponse(JSONResponse):
    """JSON as the command line writes it: every hidden or controlling character in a string (a bidi override,
    a zero-width space, an escape) as its ``\\u`` escape (:func:`~cribstats.safetext.json_visible`), so that a
    name a store kept from before the name rule decodes as it is and steers nothing that shows it."""

    def render(self, content: Any) -> bytes:
        return json_visible(super().render(content).decode("utf-8")).encode("utf-8")
