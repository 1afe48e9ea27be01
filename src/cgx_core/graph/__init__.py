"""credencegraph's graph and rubric as this package uses them: edits credencegraph lacks, the graph's digest, the
extraction stamp, which node is a check, a node's clauses and parent, loading a rubric, the review queue."""
