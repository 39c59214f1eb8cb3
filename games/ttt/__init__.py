"""Tic-tac-toe variations: rule sets as data (``rules``), a catalogue of the
seed's named games (``catalogue/*.json``), one Cython engine for all of them
(``_engine``) and their OpenSpiel face ``ttt(rules=NAME)`` (``openspiel_game``).
Rules as implemented: docs/rules/ttt.md."""
