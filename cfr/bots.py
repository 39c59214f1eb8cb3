"""A saved average policy (``cfr.policy_file``) as a ``pyspiel.Bot``.

Why a bot: so a solved policy plays in tournaments, the registry and the web
app like any other kind (``make_bot("cfr:policy=PATH", game, player)``). It
looks up the information state the player is in and samples the stored
distribution with its own seeded generator. The key is the state's
``information_state_string(player)``, prefixed as ``convert_to_turn_based``
does (``"Current player: p\\n"``) when the policy was solved on the turn-based
form of a simultaneous game, or the DAG's key (``cfr.dag.state_key``: the
position, or the player's own observation and the number of moves) when it was
solved over a DAG of merged histories. An information state the file lacks (a sampled
solve that never reached it) is played uniformly and counted in ``misses``; one
whose stored actions are not the game's, or none of them legal there, is
refused (``ValueError``, naming the state), as ``load_policy`` refuses
probabilities that are not a distribution (NaN among them).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from cfr.policy_file import load_policy
from games.openspiel import refuse_terminal

__all__ = ["CFRPolicyBot"]


class CFRPolicyBot(pyspiel.Bot):
    def __init__(self, game, player: int, *, policy, seed: int = 0):
        pyspiel.Bot.__init__(self)
        if isinstance(game, str):
            game = pyspiel.load_game(game)
        if not 0 <= player < game.num_players():
            raise ValueError(f"player must be in 0..{game.num_players() - 1}, got {player}")
        doc = load_policy(policy) if not isinstance(policy, dict) else policy
        if doc["game"] != str(game):
            raise ValueError(f"policy file was solved for {doc['game']}, not {game}")
        self._player = player
        self._table = doc["policy"]
        self._turn_based = bool(doc.get("turn_based"))
        self._keys = doc.get("keys", "information-state")
        from cfr.dag import KEYS

        if self._keys not in ("information-state", *KEYS.values()):
            raise ValueError(
                f"policy file keys {self._keys!r} unknown; expected "
                f"information-state or {' or '.join(KEYS.values())}"
            )
        actions = game.num_distinct_actions()
        for key, probs in self._table.items():
            if any(not 0 <= a < actions for a in probs):
                raise ValueError(
                    f"policy file gives {key!r} actions {sorted(probs)}, not all of them actions of "
                    f"{game} (0..{actions - 1})"
                )
        self._rng = np.random.default_rng(seed)
        self.misses = 0

    @property
    def player(self) -> int:
        return self._player

    def _key(self, state) -> str:
        if self._keys != "information-state":  # solved over a DAG: its keys (cfr.dag)
            from cfr.dag import state_key

            return state_key(self._keys.removeprefix("dag-"), state, self._player)
        text = state.information_state_string(self._player)
        return f"Current player: {self._player}\n{text}" if self._turn_based else text

    def get_policy(self, state):
        legal = state.legal_actions(self._player)
        key = self._key(state)
        probs = self._table.get(key)
        if probs is None:
            self.misses += 1
            return [(a, 1.0 / len(legal)) for a in legal]
        if not any(probs.get(a, 0.0) > 0 for a in legal):
            # a file for another game, or damaged: playing uniformly here would
            # pass for the solved policy
            raise ValueError(
                f"the policy file puts no probability on a legal action at information state "
                f"{key!r} (its actions {sorted(probs)}, legal {legal}); it was not solved for this game"
            )
        total = sum(probs.get(a, 0.0) for a in legal)
        return [(a, probs.get(a, 0.0) / total) for a in legal]

    def step_with_policy(self, state):
        refuse_terminal(state)
        policy = self.get_policy(state)
        acts = [a for a, _ in policy]
        p = np.array([q for _, q in policy])
        return policy, int(acts[self._rng.choice(len(acts), p=p / p.sum())])

    def step(self, state):
        return self.step_with_policy(state)[1]

    def provides_policy(self):
        return True

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def inform_actions(self, state, actions):
        pass

    def is_clonable(self):
        return False

    def provides_force_action(self):
        return False
