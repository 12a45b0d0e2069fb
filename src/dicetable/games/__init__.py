"""One package per game; each defines ``SPEC`` (see dicetable.engine.registry).

:data:`GAMES` is the catalogue: game id -> the package defining that game's ``SPEC``. This
module hands it to the engine's registry (``register_catalogue``) when it is imported, which
``import dicetable`` does; the registry then imports a game's package on its first use, and
only that one (``get_game("biblios-dice")`` loads Biblios Dice alone).

Why a static table rather than walking this package for game packages (as the registry
once did with pkgutil): the engine then had to import ``dicetable.games``, the package built
on it, which made an import cycle (engine registry -> games -> engine) and loaded every game
to find one. With the table the engine imports no game, a game is loaded only when used, and
adding a game is one line here (docs/engine.md, "The registry"). Why not entry points: they
exist only in an installed package's metadata, so a source checkout (``PYTHONPATH=src``) would
find no game, and a compiled build would have to carry the metadata along; this table is code.

``dicetable.games`` is a plain package. It was once also callable, for the deprecated
``dicetable.games()`` (the registry function of that name before ``list_games``), by swapping
this module's class at import; that call is gone (docs/engine.md, "Public names"): a module
whose class is replaced cannot be compiled, and ``dicetable.list_games()`` is the name.
"""

from dicetable.engine.registry import register_catalogue as _register_catalogue

#: game id -> the package defining its ``SPEC`` (imported on the game's first use).
GAMES = {
    "biblios-dice": "dicetable.games.biblios_dice",
    "corsairs-of-valeria": "dicetable.games.corsairs_of_valeria",
    "dice-kingdoms-of-valeria": "dicetable.games.dice_kingdoms_of_valeria",
    "kingdom-of-dice": "dicetable.games.kingdom_of_dice",
    "valeria-card-kingdoms": "dicetable.games.valeria_card_kingdoms",
}
_register_catalogue(GAMES)

