"""One package per game; each defines ``SPEC`` (see dicetable.engine.registry)."""
