"""Make a folder that puts an installed compiled build first on PYTHONPATH (used by ``make test``).

Run with the base install's interpreter: ``python tests/build/compiled_path.py DIR``. When that
install is the compiled build (``pip install .`` found a C compiler), DIR gets links to its
``dicetable`` package and mypyc's shared module, so ``PYTHONPATH=DIR`` makes the development
environment's interpreter run the whole suite on the compiled build; when the install is
pure, DIR is left empty and the suite runs on the editable pure sources. Prints which.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def main(folder: str) -> str:
    """Fill ``folder`` (created or emptied) and return ``"compiled"`` or ``"pure"``."""
    import dicetable
    from dicetable.compiled import compiled_available

    target = Path(folder)
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    if not compiled_available():
        return "pure"
    package = Path(dicetable.__file__).resolve().parent
    site = package.parent
    (target / "dicetable").symlink_to(package, target_is_directory=True)
    shared = sorted(site.glob("dicetable_compiled__mypyc*"))
    if not shared:
        raise SystemExit(f"{site}: a compiled dicetable without mypyc's shared module dicetable_compiled__mypyc")
    for path in shared:
        (target / path.name).symlink_to(path)
    return "compiled"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python tests/build/compiled_path.py DIR")
    print(f"the suite runs on the {main(sys.argv[1])} build")
