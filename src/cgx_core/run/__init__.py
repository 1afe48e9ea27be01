"""The run directory: its layout, manifest, lock, log and state, and the transaction that ties them."""
