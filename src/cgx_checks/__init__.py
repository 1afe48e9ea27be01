"""The built-in check types, each a pluggy plugin registered through the same entry-point group as a
third party's (`credencegraph_extract.checks`). Each plugin module is light to import: the machinery of
its check (lark grammars, sympy, httpx) is imported only when a check runs."""
