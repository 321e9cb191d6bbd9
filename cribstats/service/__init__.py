"""``cribstats serve``: the store on the web, with an API (FastAPI on uvicorn).

:mod:`~cribstats.service.keys` manages the API keys (it needs no web framework, so ``cribstats keys`` stays
light); :mod:`~cribstats.service.app` builds the application from :class:`~cribstats.service.settings.Settings`;
:mod:`~cribstats.service.api` and :mod:`~cribstats.service.pages` are its JSON API and its HTML pages, both over
:mod:`~cribstats.service.views`, which reads the store through the same library the commands use.
"""
