"""The paper's maths as MathML, made here in Python (latex2mathml), which Chromium and Firefox render natively:
the page stays one file, offline, with no script of anyone else's.

LaTeX from the paper is data, so what latex2mathml makes is not trusted either: it is parsed, every element
must be a MathML presentation element and every attribute one of a short list, and it is serialised again
by the standard library (which escapes every text). Anything else, or LaTeX latex2mathml cannot read, is
shown as the LaTeX it is (escaped by the template), never as markup.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

from markupsafe import Markup, escape

MATHML = "http://www.w3.org/1998/Math/MathML"
ELEMENTS = frozenset(
    [
        "math",
        "mrow",
        "mi",
        "mn",
        "mo",
        "ms",
        "mtext",
        "mspace",
        "msup",
        "msub",
        "msubsup",
        "mfrac",
        "msqrt",
        "mroot",
        "mstyle",
        "merror",
        "mpadded",
        "mphantom",
        "mfenced",
        "menclose",
        "mover",
        "munder",
        "munderover",
        "mtable",
        "mtr",
        "mtd",
        "mlabeledtr",
        "maligngroup",
        "malignmark",
        "semantics",
        "annotation",
    ]
)
ATTRIBUTES = frozenset(
    [
        "display",
        "mathvariant",
        "stretchy",
        "fence",
        "separator",
        "lspace",
        "rspace",
        "accent",
        "accentunder",
        "movablelimits",
        "largeop",
        "symmetric",
        "minsize",
        "maxsize",
        "width",
        "height",
        "depth",
        "linethickness",
        "columnalign",
        "rowalign",
        "columnspan",
        "rowspan",
        "columnlines",
        "rowlines",
        "frame",
        "displaystyle",
        "scriptlevel",
        "notation",
        "open",
        "close",
        "separators",
        "form",
        "encoding",
    ]
)
ENVIRONMENT = re.compile(r"^\\begin\{(equation|align|gather|multline|displaymath)\*?\}(.*)\\end\{\1\*?\}$", re.S)
LABEL = re.compile(r"\\label\{[^{}]*\}")
INLINE = re.compile(r"(?<!\\)\$([^$]+)\$")

ElementTree.register_namespace("", MATHML)


def _checked(markup: str) -> str | None:
    try:
        root = ElementTree.fromstring(markup)
    except ElementTree.ParseError:
        return None
    for element in root.iter():
        namespace, _, name = element.tag.rpartition("}")
        if namespace != "{" + MATHML or name not in ELEMENTS or not set(element.attrib) <= ATTRIBUTES:
            return None
    return ElementTree.tostring(root, encoding="unicode")


def mathml(latex: str, *, display: bool) -> str | None:
    """`latex` as checked MathML, or None when it cannot be rendered safely."""
    from latex2mathml.converter import convert

    try:
        made = convert(latex, display="block" if display else "inline")
    except Exception:  # latex2mathml raises many kinds on LaTeX it cannot read: the source is shown instead
        return None
    return _checked(made)


def equation(text: str) -> Markup | None:
    """A display equation chunk (its environment and labels dropped) as MathML, or None."""
    matched = ENVIRONMENT.match(text.strip())
    body = LABEL.sub("", matched.group(2) if matched else text).strip()
    rendered = mathml(body, display=True) if body else None
    return Markup(rendered) if rendered is not None else None


def inline(text: str) -> Markup:
    """A sentence with each `$...$` span as MathML (left as written when it cannot be), the rest escaped."""
    out: list[str] = []
    last = 0
    for found in INLINE.finditer(text):
        rendered = mathml(found.group(1), display=False)
        out.append(str(escape(text[last : found.start()])))
        out.append(rendered if rendered is not None else str(escape(found.group(0))))
        last = found.end()
    out.append(str(escape(text[last:])))
    return Markup("".join(out))
