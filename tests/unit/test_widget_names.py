"""Our widgets never shadow Textual's own attributes by accident (STYLE: the ``_odd`` trap).

Textual's widgets keep much of their state in ``_`` attributes and methods; a subclass
that defines one of the same name silently replaces it. Every name a widget class in
``snl_tui/widgets`` defines (a method, or ``self.name = ...`` in a method) is checked
against the Textual class it extends: a ``_`` name must be new, and a public name may
only be set if Textual means it to be set (a reactive or a property with a setter).
Overriding a public method (``render_line``) is the widget API and is allowed.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from pathlib import Path

import pytest
from textual.reactive import Reactive
from textual.widget import Widget

WIDGETS = Path(__file__).resolve().parents[2] / "snl_tui" / "widgets"


def defined_names(cls: type) -> tuple[set[str], set[str]]:
    """The methods a class body defines and the ``self.x`` attributes its methods set."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0]
    assert isinstance(body, ast.ClassDef)
    methods = {node.name for node in body.body if isinstance(node, ast.FunctionDef)}
    attributes = set()
    for node in ast.walk(body):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                attributes.add(target.attr)
    return methods, attributes


def widget_classes() -> list[type[Widget]]:
    classes = []
    for path in sorted(WIDGETS.glob("*.py")):
        module = importlib.import_module(f"snl_tui.widgets.{path.stem}")
        classes += [
            cls
            for cls in vars(module).values()
            if inspect.isclass(cls)
            and issubclass(cls, Widget)
            and cls.__module__ == module.__name__
        ]
    assert len(classes) >= 5  # the scan really found the widgets
    return classes


def textual_base(cls: type) -> type:
    return next(base for base in cls.__mro__ if base.__module__.startswith("textual."))


def textual_names(base: type) -> set[str]:
    """What the Textual class defines, and what its constructor sets on an instance."""
    return set(dir(base)) | set(vars(base()))


def settable(base: type, name: str) -> bool:
    attribute = inspect.getattr_static(base, name)
    if isinstance(attribute, Reactive):
        return True
    if isinstance(attribute, property):
        return attribute.fset is not None
    # Other data descriptors meant to be set (``border_title`` is one).
    return hasattr(type(attribute), "__set__")


@pytest.mark.parametrize("cls", widget_classes(), ids=lambda cls: cls.__name__)
def test_a_widget_shadows_no_textual_attribute(cls: type) -> None:
    base = textual_base(cls)
    taken = textual_names(base)
    methods, attributes = defined_names(cls)
    private = {name for name in methods | attributes if name.startswith("_")}
    private -= {"__init__"}
    assert sorted(private & taken) == []
    shadowed = {
        name
        for name in attributes
        if not name.startswith("_") and name in taken and not settable(base, name)
    }
    assert sorted(shadowed) == []


def test_the_check_finds_a_clash() -> None:
    class Clumsy(Widget):
        def __init__(self) -> None:
            super().__init__()
            self._odd = True  # Textual's Widget has its own _odd
            self.region = None  # a read-only property of Widget

    _, attributes = defined_names(Clumsy)
    assert {"_odd", "region"} <= attributes
    assert "_odd" in textual_names(Widget) and not settable(Widget, "region")
