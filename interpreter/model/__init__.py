"""The value model: what effect-language values are, below every other layer.

``values`` defines the engine's own kinds of value (players, zones, grids,
rooms, sides, effects) as tagged immutable objects, how they are written in
saved states, and how people read them; ``rng`` is the random generator
whose whole state is one integer. Both ``engine/`` and ``mechanics/`` import
this package and never each other's internals, so imports run one way.
"""
