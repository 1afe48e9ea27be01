"""The paper's maths as MathML on the report page: rendered where latex2mathml reads it, and never markup
that is not MathML, whatever the paper writes."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from cgx_core.report.mathml import ATTRIBUTES, ELEMENTS, equation, inline


class Tags(HTMLParser):
    """Every element and attribute name in some markup, as a browser's HTML parser reads it."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()
        self.attributes: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.names.add(tag)
        self.attributes.update(name for name, _ in attrs)


def test_a_display_equation_renders_without_its_environment_and_label() -> None:
    rendered = equation(r"\begin{equation} \frac{1}{1 - \gamma T} = 1 + \gamma T \label{eq:x} \end{equation}")
    assert rendered is not None
    assert rendered.startswith('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">')
    assert "<mfrac>" in rendered and "<mi>T</mi>" in rendered
    assert "label" not in rendered and "eq:x" not in rendered


def test_inline_maths_renders_in_place_and_the_rest_is_escaped() -> None:
    rendered = inline(r"so $\gamma = \ln(x)/T$ holds <b>here</b>")
    assert rendered.startswith("so <math") and rendered.endswith(" holds &lt;b&gt;here&lt;/b&gt;")


@pytest.mark.parametrize(
    "hostile",
    [
        r"$<script>alert(1)</script>$",
        r"$\text{<img src=x onerror=alert(1)>}$",
        r"$\href{javascript:alert(1)}{x}$",
        r"$\style{color:red}{x}$ and $\frac{$",
        "$x\u0000y$",
    ],
)
def test_nothing_the_paper_writes_becomes_markup_other_than_mathml(hostile: str) -> None:
    for rendered in (str(inline(hostile)), str(equation(hostile.strip("$")) or "")):
        tags = Tags()
        tags.feed(rendered)
        assert tags.names <= ELEMENTS, tags.names
        assert tags.attributes <= ATTRIBUTES | {"xmlns"}, tags.attributes


def test_latex_that_cannot_be_read_is_left_as_written() -> None:
    assert equation(r"\frac{") is None
    assert str(inline(r"a $\frac{$ b")) == r"a $\frac{$ b"
