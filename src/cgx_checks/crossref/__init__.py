"""cross-reference's pieces: its codes, and the paper's numbering as start_run recorded it on the chunks."""
