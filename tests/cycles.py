"""What a piece of code leaves for the cyclic garbage collector: objects only a collection frees."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def cyclic_garbage() -> Iterator[list]:
    """Collect what was garbage before, then yield a list that holds, after the block, every object
    the block left in reference cycles (unreachable, freed only by a collection). The collector does
    not run automatically inside the block."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    left: list = []
    try:
        yield left
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
