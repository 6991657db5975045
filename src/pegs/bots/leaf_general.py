"""The leaf model of a preset without one of its own, fitted to the positions of
all the presets together (do not edit), written by

    scripts/fit_leaf.py --general --games 400 --seed 7
"""

from .heuristic import Weights
from .leaf import LeafModel

# 102955 positions of 400 games each of 9 presets; held-out log-loss 0.565
GENERAL = LeafModel(
    Weights(out=-22.067, hole=1.000, home=11.695, settled=74.695, bind=-9.183,
            block=-9.183, few_out=58.559, joker_keep=5.732, joker_endgame=6.504,
            come_out_keep=0.077, small_keep=-0.597),
    danger=0.605, keep=16.992, tempo=-3.465, scale=227.4)
