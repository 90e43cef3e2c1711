"""The public API's argument contract: a wrong type or an impossible value is refused by name.

Every public function and value class of moonrules checks its arguments where it is
entered: an argument of the wrong type raises :class:`TypeError` naming the parameter
(:func:`~moonrules.rules.errors.wrong_type`), an impossible value :class:`ValueError` (or
one of the library's own :class:`~moonrules.rules.errors.MoonError` subclasses) naming it.
Nothing deeper ever meets a value it cannot use. The checks on the game's hot paths are
``type(x) is`` tests written out where they are needed; the helpers here serve the rest.

The value classes check their fields from their annotations: :func:`typed` is the
``field_transformer`` of ``attrs`` that gives each field a check of its annotated type
(``@attrs.frozen(slots=True, field_transformer=typed)``), so that a value is never built
from parts of the wrong type. The positional builders of the hot paths
(:mod:`moonrules.kernel.builders`) skip those checks: they build from values already checked.

>>> check_int(3, "players", 3, 4)
3
>>> check_int("3", "players", 3, 4)
Traceback (most recent call last):
...
TypeError: players: expected a whole number, not '3'
>>> check_int(9, "players", 3, 4)
Traceback (most recent call last):
...
moonrules.rules.errors.ArgumentError: players: a whole number from 3 to 4, not 9
>>> conforms((1, 2), tuple[int, ...]), conforms((1, "2"), tuple[int, ...]), conforms(True, int)
(True, False, False)
>>> describe(tuple[int, ...] | None)
'a tuple of whole numbers, or None'
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import os
import sys
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

import attrs

from moonrules.rules.errors import ArgumentError, shown, wrong_type

_T = TypeVar("_T")


def range_text(low: int | None, high: int | None) -> str:
    """``"from 0 to 2"``, ``"at least 1"``, ``"at most 9"`` (or ``""`` for no bound)."""
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    return "" if high is None else f"at most {high}"


def check_int(
    value: object,
    parameter: str,
    low: int | None = None,
    high: int | None = None,
    what: str = "a whole number",
) -> int:
    """``value`` if it is an ``int`` (never a ``bool``) within ``low`` … ``high`` (inclusive).

    :class:`TypeError` naming ``parameter`` for any other type, :class:`ValueError` naming
    it for a number out of range.
    """
    if type(value) is not int:
        raise wrong_type(parameter, what, value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ArgumentError(f"{parameter}: {what} {range_text(low, high)}, not {shown(value)}")
    return value


def check_number(
    value: object, parameter: str, low: float | None = None, high: float | None = None
) -> float:
    """``value`` if it is a finite ``int`` or ``float`` (never a ``bool``) within the bounds."""
    if type(value) is not float and type(value) is not int:
        raise wrong_type(parameter, "a number", value)
    if value != value or value in (float("inf"), float("-inf")):
        raise ArgumentError(f"{parameter}: expected a finite number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (
            f"from {low:g} to {high:g}"
            if low is not None and high is not None
            else f"at least {low:g}"
            if low is not None
            else f"at most {high:g}"
        )
        raise ArgumentError(f"{parameter}: a number {bounds}, not {value!r}")
    return float(value)


def check_bool(value: object, parameter: str) -> bool:
    """``value`` if it is ``True`` or ``False``; :class:`TypeError` naming ``parameter``."""
    if type(value) is not bool:
        raise wrong_type(parameter, "True or False", value)
    return value


def check_str(value: object, parameter: str, what: str = "text (a str)") -> str:
    """``value`` if it is a ``str``; :class:`TypeError` naming ``parameter``."""
    if not isinstance(value, str):
        raise wrong_type(parameter, what, value)
    return value


def check_instance(value: object, cls: type[_T], parameter: str, what: str | None = None) -> _T:
    """``value`` if it is an instance of ``cls``; :class:`TypeError` naming ``parameter``."""
    if not isinstance(value, cls):
        raise wrong_type(parameter, what or _article(cls.__name__), value)
    return value


def check_sequence(
    value: object, parameter: str, what: str, item: Callable[[object, str], object] | None = None
) -> Sequence[Any]:
    """``value`` if it is a sequence (a list, a tuple, …; never text), each item checked by
    ``item(value, "parameter[i]")``; :class:`TypeError` naming ``parameter``."""
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise wrong_type(parameter, what, value)
    if item is not None:
        for i, v in enumerate(value):
            item(v, f"{parameter}[{i}]")
    return value


def check_iterable(value: object, parameter: str, what: str) -> list[Any]:
    """The items of ``value``, an iterable that is not text; :class:`TypeError` naming
    ``parameter``."""
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(
        value, collections.abc.Iterable
    ):
        raise wrong_type(parameter, what, value)
    return list(value)


def check_callable(value: object, parameter: str, optional: bool = False) -> None:
    """:class:`TypeError` naming ``parameter`` unless ``value`` can be called (or is ``None``
    when ``optional``)."""
    if not (callable(value) or (optional and value is None)):
        raise wrong_type(parameter, "a function" + (" or None" if optional else ""), value)


def check_path(value: object, parameter: str) -> os.PathLike[str] | str:
    """``value`` if it is a path: text or an :class:`os.PathLike` of text."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike) and isinstance(os.fspath(value), str):
        return value
    raise wrong_type(parameter, "a path (str or os.PathLike)", value)


# ---------------------------------------------------------------------------
# Annotations as checks


def conforms(value: object, hint: object) -> bool:
    """Whether ``value`` has the type the annotation ``hint`` names.

    ``int`` takes no ``bool`` (a seat or a count is never ``True``); ``float`` takes an
    ``int``; a sequence or an iterable type never takes text; the items of a tuple, a list,
    a set or a dict are checked too. Anything this function cannot judge (a protocol
    that is not runtime-checkable, a type variable) conforms. Each annotation is turned
    into its check once (:func:`checker`).
    """
    return checker(hint)(value)


Check = Callable[[object], bool]
"""A check of one value: whether it has one annotated type."""


def _anything(value: object) -> bool:
    return True


def _is_none(value: object) -> bool:
    return value is None


def _is_int(value: object) -> bool:
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def _is_number(value: object) -> bool:
    return type(value) is float or _is_int(value)


def _is_stream(value: object) -> bool:
    return hasattr(value, "read") or hasattr(value, "write")


_STREAMS: Final = (typing.IO, typing.TextIO, typing.BinaryIO)
_TEXT: Final = (str, bytes, bytearray)
_LAZY: Final = (Sequence, collections.abc.Iterable, collections.abc.Collection)


@functools.lru_cache(maxsize=1024)
def checker(hint: object) -> Check:
    """The check of annotation ``hint`` (see :func:`conforms`), made once per annotation."""
    if hint is Any or hint is object or isinstance(hint, TypeVar):
        return _anything
    if hint is None or hint is type(None):
        return _is_none
    origin = typing.get_origin(hint)
    if hint in _STREAMS or origin in _STREAMS:  # a stream is what can be read or written
        return _is_stream
    if origin is None:
        return _class_check(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        checks = tuple(checker(a) for a in args)
        return lambda value: any(c(value) for c in checks)
    if origin is typing.Literal:
        return lambda value: any(type(value) is type(a) and value == a for a in args)
    if origin is typing.ClassVar or origin is typing.Final:
        return checker(args[0]) if args else _anything
    if origin is collections.abc.Callable:
        return callable
    if origin is type:
        bound = args[0] if args and isinstance(args[0], type) else object
        return lambda value: isinstance(value, type) and issubclass(value, bound)
    if not isinstance(origin, type):
        return _anything
    return _container_check(origin, args)


def _class_check(hint: object) -> Check:
    if hint is int:
        return _is_int
    if hint is float:
        return _is_number
    if not isinstance(hint, type):
        return _anything
    if getattr(hint, "_is_protocol", False) and not getattr(hint, "_is_runtime_protocol", False):
        return _anything
    if hint in _LAZY:
        return lambda value: isinstance(value, hint) and not isinstance(value, _TEXT)
    return lambda value: isinstance(value, hint)


def _container_check(origin: type, args: tuple[object, ...]) -> Check:
    """A check of a container of type ``origin`` (never text, unless it is a text type)
    whose items have the types ``args``."""
    text_ok = origin in _TEXT

    def kind(value: object) -> bool:
        return isinstance(value, origin) and (text_ok or not isinstance(value, _TEXT))

    if not args:
        return kind
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = checker(args[0])
        return lambda value: kind(value) and all(map(item, value))  # type: ignore[call-overload]
    if origin is tuple:
        if args == ((),):
            return lambda value: kind(value) and not value
        items = tuple(checker(a) for a in args)
        return lambda value: (
            kind(value)
            and len(value) == len(items)  # type: ignore[arg-type]
            and all(c(v) for c, v in zip(items, value, strict=True))  # type: ignore[call-overload]
        )
    if issubclass(origin, collections.abc.Mapping):
        key, item = (checker(args[0]), checker(args[1])) if len(args) == 2 else (_anything,) * 2
        return lambda value: (
            kind(value)
            and all(
                key(k) and item(v)
                for k, v in value.items()  # type: ignore[attr-defined]
            )
        )
    item = checker(args[0])

    def collection(value: object) -> bool:
        if not kind(value):
            return False
        if isinstance(value, (list, tuple, set, frozenset)):
            return all(map(item, value))
        return True  # an iterator or another lazy collection: its items are not drawn here

    return collection


_NAMES: Final[dict[object, str]] = {
    int: "a whole number",
    float: "a number",
    bool: "True or False",
    str: "text (a str)",
    bytes: "bytes",
    type(None): "None",
    None: "None",
}


def describe(hint: object) -> str:
    """The annotation ``hint`` in words, for an error message: ``"a tuple of Tile values"``."""
    if hint in _NAMES:
        return _NAMES[hint]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return ", or ".join(describe(a) for a in args)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is collections.abc.Callable:
        return "a function"
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return f"a tuple of {_plural(args[0])}"
    if origin is tuple:
        return "a tuple of " + ", ".join(describe(a) for a in args)
    if origin is not None and args and isinstance(origin, type):
        name = _kind_names.get(origin, origin.__name__)
        if issubclass(origin, collections.abc.Mapping):
            return f"{_article(name)} of {describe(args[0])} to {describe(args[-1])}"
        return f"{_article(name)} of {_plural(args[0])}"
    if isinstance(hint, type):
        return _article(_kind_names.get(hint, hint.__name__))
    if origin is not None and isinstance(origin, type):
        return _article(origin.__name__)
    return str(hint)


_kind_names: Final[dict[type, str]] = {
    collections.abc.Sequence: "sequence",
    collections.abc.Iterable: "iterable",
    collections.abc.Mapping: "mapping",
    collections.abc.Collection: "collection",
}


def _plural(hint: object) -> str:
    """``hint`` in words, for many of them: ``"Tile values"``, ``"tuples of whole numbers"``."""
    if hint is int:
        return "whole numbers"
    if hint is str:
        return "texts"
    if isinstance(hint, type):
        return f"{hint.__name__} values"
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return f"tuples of {_plural(args[0])}"
    return f"values of the kind {describe(hint)}"


def _article(name: str) -> str:
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


@attrs.define(slots=True)
class _FieldCheck:
    """The check of one field's annotated type, evaluated on first use (when every name of
    the module the class is in is defined). It keeps the annotation's text and the module's
    name, not the class ``attrs`` replaces with its slotted copy."""

    module: str
    name: str
    annotation: object
    expected: str | None = None
    """What the error says the field takes, instead of the annotation in words."""
    hint: object = attrs.field(default=None, init=False)
    resolved: bool = attrs.field(default=False, init=False)
    check: Check | None = attrs.field(default=None, init=False)

    def resolve(self) -> object:
        """The annotation, evaluated; :class:`NameError` while it names something its
        module has not defined yet."""
        if not self.resolved:
            annotation = self.annotation
            if isinstance(annotation, str):
                module = sys.modules.get(self.module)
                namespace = {**vars(typing), **(vars(module) if module is not None else {})}
                annotation = eval(annotation, namespace)
            self.hint = annotation
            self.resolved = True
        return self.hint

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        check = self.check
        if check is None:
            try:
                check = self.check = checker(self.resolve())
            except NameError:  # a name its module defines further down: checked once it does
                return
        if not check(value):
            expected = self.expected or describe(self.hint)
            raise wrong_type(attribute.alias or self.name, expected, value)


@functools.cache
def _parameter_hints(function: Callable[..., object]) -> tuple[tuple[str, object], ...]:
    """The annotation of each parameter of ``function``, evaluated (a ``Literal`` as the
    types of its values: which value is allowed is the function's question); parameters
    whose annotation names what only a type checker sees are left out."""
    module = sys.modules.get(function.__module__)
    namespace = {**vars(typing), **(vars(module) if module is not None else {})}
    out = []
    for name, annotation in inspect.get_annotations(function).items():
        if name == "return":
            continue
        try:
            hint = eval(annotation, namespace) if isinstance(annotation, str) else annotation
        except NameError:
            continue
        out.append((name, _literal_types(hint)))
    return tuple(out)


def _literal_types(hint: object) -> object:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        kinds = tuple({type(a) for a in typing.get_args(hint)})
        return kinds[0] if len(kinds) == 1 else typing.Union[kinds]  # noqa: UP007
    if origin is typing.Union or origin is types.UnionType:
        return typing.Union[tuple(_literal_types(a) for a in typing.get_args(hint))]  # noqa: UP007
    return hint


def check_arguments(function: Callable[..., object], arguments: dict[str, object]) -> None:
    """:class:`TypeError` naming the first parameter of ``function`` whose argument in
    ``arguments`` (the function's ``locals()`` on entry) is not of its annotated type.

    For a public entry point that is not on a hot path: one line checks every argument
    against the signature, as :func:`typed` checks a value's fields.
    """
    for name, hint in _parameter_hints(function):
        if name in arguments and not conforms(arguments[name], hint):
            raise wrong_type(name, describe(hint), arguments[name])


def typed(cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
    """The ``field_transformer`` that checks each field's annotated type before its own
    validator runs: a field of the wrong type raises :class:`TypeError` naming it, and saying
    what it takes: the field's ``metadata["expected"]``, else its annotation in words."""
    out = []
    for f in fields:
        if f.type is None:
            out.append(f)
            continue
        check = _FieldCheck(cls.__module__, f.name, f.type, f.metadata.get("expected"))
        validator = check if f.validator is None else attrs.validators.and_(check, f.validator)
        out.append(f.evolve(validator=validator))
    return out


__all__ = [
    "check_arguments",
    "check_bool",
    "check_callable",
    "check_instance",
    "check_int",
    "check_iterable",
    "check_number",
    "check_path",
    "check_sequence",
    "check_str",
    "checker",
    "conforms",
    "describe",
    "range_text",
    "typed",
]
