"""Generated positional constructors for the frozen values of the game's hot paths.

The ``__init__`` attrs generates for a frozen class sets each field through
``object.__setattr__``; the function built here sets the slots through their
descriptors, which costs about a third less. It is generated the way attrs
generates ``__init__``, and its source is registered with :mod:`linecache` under a
file name of its own (as attrs does), so tracebacks, :func:`inspect.getsource` and
debuggers show the generated code.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

_V = TypeVar("_V", bound=attrs.AttrsInstance)


def builder_filename(cls: type) -> str:
    """The file name the source of ``cls``'s builder is registered under in :mod:`linecache`."""
    return f"<moonrules generated builder {cls.__module__}.{cls.__qualname__}>"


def positional_builder(cls: type[_V]) -> Callable[..., _V]:
    """A constructor of ``cls`` taking every field positionally, for the hot paths.

    Only for classes with nothing for ``__init__`` to do but check and set the fields:
    no converters or post-init hook (:class:`TypeError` otherwise). The builder skips
    the checks (validators, the annotated types of
    :func:`~moonrules.rules.contract.typed`): the hot paths build from values already
    checked. ``tests/test_kernel_builders.py`` checks that it builds the value the class does.
    """
    fields = attrs.fields(cls)
    if any(f.converter or not f.init for f in fields) or hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__} needs its own __init__")
    names = [f.name for f in fields]
    name = f"build_{cls.__name__}"
    namespace: dict[str, Any] = {f"set_{n}": cls.__dict__[n].__set__ for n in names}
    namespace.update(new=object.__new__, cls=cls)
    source = (
        f"def {name}({', '.join(names)}):\n"
        f'    """Build a {cls.__qualname__} from its fields, in order, without validation."""\n'
        "    value = new(cls)\n"
        + "".join(f"    set_{n}(value, {n})\n" for n in names)
        + "    return value\n"
    )
    filename = builder_filename(cls)
    exec(compile(source, filename, "exec"), namespace)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    build: Callable[..., _V] = namespace[name]
    build.__qualname__ = name
    return build


__all__ = ["builder_filename", "positional_builder"]
