"""Running the service beyond one machine: the reference topology (docs/deployment.md)."""
