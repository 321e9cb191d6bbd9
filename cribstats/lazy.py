"""A package's public names loaded from their modules on first use (PEP 562), so that importing it costs little.

>>> names: dict[str, object] = {}
>>> getattr_, dir_ = lazy_names("demo", {"math": ("pi", "tau")}, names)
>>> round(getattr_("tau"), 2), "tau" in names, dir_()
(6.28, True, ['pi', 'tau'])
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy_names(
    package: str, modules: dict[str, tuple[str, ...]], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose names are those of ``modules`` (module name to
    the names it gives); a name once loaded is kept in ``namespace`` (the package's ``globals()``)."""
    home = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(import_module(module), name)
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *home})

    return __getattr__, __dir__
