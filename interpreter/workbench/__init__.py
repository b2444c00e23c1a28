"""The designer's workbench: what a game designer runs on a ruleset besides playing it.

Diagnostics for editors and CI (``formats``), balance reports from many
seeded games (``stats``, ``balance``, ``plots``), games on many cores and
many machines (``parallel``) and rule coverage (``coverage``). A stage on top
of the engine and the agents: ``cli`` imports it, it never imports ``cli``.
"""
