"""Reading a paper's PDF beyond credencegraph's chunks: its tables as rows, and what the PDF could not give.

credencegraph's reader (`credencegraph.ingest.pdf.analyse_pdf`, on PDFium through pypdfium2) gives every line
with its glyph boxes, font and size, and the captions it found; this package reads the tables out of those
lines (`cells`, `tables`) and says what a PDF run lacks (`limits`). docs/pdf.md is the user's account, with
the choice of library and what was measured on the shared papers.
"""
