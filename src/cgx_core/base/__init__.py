"""The foundation every layer may import: digests and canonical JSON, size limits, JSON schema checking, JSON
value names. It imports nothing of cgx_core but the codes and the call error (see docs/architecture.md)."""
