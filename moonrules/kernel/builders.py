"""Generated positional constructors for the frozen values of the game's hot paths.

The ``__init__`` attrs generates for a frozen class sets each field through
``object.__setattr__``; the functions built here cost a fraction of that. For a class
without a ``__weakref__`` slot (``weakref_slot=False``), the builder fills an instance of
a plain *twin* class with the same slots, by ordinary attribute stores (the cheapest way
Python has to set a slot), and then turns it into an instance of the class by assigning
its ``__class__``: CPython allows that between classes of the same layout, and the value
is then in every way one the class built (its type, ``==``, ``hash``, ``repr``, frozen).
For any other class, the builder sets each slot through its descriptor. Either way it
is generated the way attrs generates ``__init__``, and its source is registered with
:mod:`linecache` under a file name of its own (as attrs does), so tracebacks,
:func:`inspect.getsource` and debuggers show the generated code.
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


def twin_of(cls: type) -> type | None:
    """A plain class with the slots of ``cls``, whose instances may become instances of
    ``cls`` by assigning ``__class__``; ``None`` when CPython would refuse the assignment
    (a ``__weakref__`` or ``__dict__`` slot, another base: then the builder sets the slots
    through their descriptors)."""
    slots = cls.__dict__.get("__slots__")
    if cls.__bases__ != (object,) or not isinstance(slots, tuple) or "__weakref__" in slots:
        return None
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": slots, "__module__": __name__})
    probe: object = object.__new__(twin)
    try:
        probe.__class__ = cls
    except TypeError:
        return None
    return twin


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
    twin = twin_of(cls)
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls, "twin": twin}
    if twin is not None:
        body = "    value = new(twin)\n" + "".join(f"    value.{n} = {n}\n" for n in names)
        body += "    value.__class__ = cls\n"
    else:
        namespace.update({f"set_{n}": cls.__dict__[n].__set__ for n in names})
        body = "    value = new(cls)\n" + "".join(f"    set_{n}(value, {n})\n" for n in names)
    source = (
        f"def {name}({', '.join(names)}):\n"
        f'    """Build a {cls.__qualname__} from its fields, in order, without validation."""\n'
        + body
        + "    return value\n"
    )
    filename = builder_filename(cls)
    exec(compile(source, filename, "exec"), namespace)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    build: Callable[..., _V] = namespace[name]
    build.__qualname__ = name
    return build


__all__ = ["builder_filename", "positional_builder", "twin_of"]
