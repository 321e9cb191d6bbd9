"""The scorecard page, ``/scorecard``: the recorder types in a night's cards as the scorecard sheet's rows
(:mod:`cribstats.service.scorecard_form`), or pastes a sheet. It needs a session, as the upload page does, and
its forms carry the CSRF token. No script: "More rows" is a button that sends the form back with more rows."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cribstats.service.auth import check_csrf, service_of, session_holder
from cribstats.service.pages import render
from cribstats.service.scorecard_form import FILE, FORM_COLUMNS, LABELS, MAX_ROWS, NIGHT_FIELDS, ScorecardForm

router = APIRouter(include_in_schema=False)
MAX_FIELDS = MAX_ROWS * len(FORM_COLUMNS) + len(NIGHT_FIELDS) + 8


def _page(request: Request, holder: object, form: ScorecardForm, status: int = 200, *, sheet: str = "",
          summary: object = None, checked: bool = False, games: int = 0) -> Response:  # fmt: skip
    return render(request, "scorecard.html.j2", status, title="Scorecards", holder=holder, csrf="", form=form,
                  columns=[(c, LABELS[c]) for c in FORM_COLUMNS], sheet=sheet, summary=summary,
                  checked=checked, games=games, max_rows=MAX_ROWS)  # fmt: skip


@router.get("/scorecard", response_class=HTMLResponse)
def scorecard_form(request: Request) -> Response:
    holder = session_holder(request)
    if holder is None:
        return RedirectResponse("/session?next=/scorecard", status_code=303)
    return _page(request, holder, ScorecardForm.empty())


@router.post("/scorecard", response_class=HTMLResponse)
async def scorecard(request: Request) -> Response:
    holder = session_holder(request)
    if holder is None:
        return RedirectResponse("/session?next=/scorecard", status_code=303)
    fields = await request.form(max_files=0, max_fields=MAX_FIELDS,
                                max_part_size=service_of(request).settings.max_upload)  # fmt: skip
    token = fields.get("csrf_token")
    check_csrf(request, token if isinstance(token, str) else None)
    action = fields.get("action")
    if isinstance(fields.get("sheet"), str):  # the paste box
        text = str(fields.get("sheet"))
        summary = await _store(request, text.replace("\r\n", "\n"))
        status = 200 if not summary["refused_count"] and not summary["conflict_count"] else 400
        return _page(request, holder, ScorecardForm.empty(), status, sheet=text, summary=summary)
    form = ScorecardForm.from_fields(fields)
    if action == "more":
        form.add_rows()
        return _page(request, holder, form)
    games = form.check()
    if form.refused or action != "store" or not form.filled:
        return _page(request, holder, form, 400 if form.refused else 200, checked=True, games=games)
    summary = await _store(request, form.sheet()[0])
    status = 200 if not summary["refused_count"] and not summary["conflict_count"] else 400
    return _page(request, holder, form, status, summary=summary, checked=True, games=games)


async def _store(request: Request, text: str) -> dict[str, object]:
    """The sheet stored through the upload's import, as the file ``scorecard`` (a sheet whatever its header)."""
    from cribstats.service.uploads import Part, import_parts, spool

    handle = spool()
    handle.write(text.encode("utf-8"))
    return await run_in_threadpool(import_parts, service_of(request).engine, [Part(FILE, handle, sheet=True)],
                                   replace=False)  # fmt: skip
