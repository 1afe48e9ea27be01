"""The tools' machinery, shared by every tool and both front ends: the registry, argument checking, descriptions,
argument and result schemas, the docs page, result bytes, paging and fencing. The tools themselves are in
`cgx_core.tools`, one module each."""
