"""Adapters from the rules engine to learning toolkits.

:mod:`pegs.adapters.codec` maps actions to short token sequences and back,
:mod:`pegs.adapters.decisions` splits a turn into those token choices,
:mod:`pegs.adapters.observation` encodes a seat's view as fixed-shape arrays,
:mod:`pegs.adapters.pettingzoo` is the PettingZoo AEC environment and
:mod:`pegs.adapters.gym_seat` a Gymnasium environment for one learning seat.  The last
two import the optional ``research`` packages (``pip install pegs[research]``).
"""
