"""Leaf models per preset (do not edit), written by

    scripts/fit_leaf.py --games 4000 --seed 7
"""

from .heuristic import Weights
from .leaf import LeafModel

MODELS: dict[str, LeafModel] = {
    # 69118 positions of 4000 games; held-out log-loss 0.583
    "pegoo": LeafModel(
        Weights(out=-27.623, hole=1.000, home=12.220, settled=66.539, bind=-0.333,
                block=-0.333, few_out=48.506, joker_keep=4.046, joker_endgame=7.865,
                come_out_keep=0.301, small_keep=-0.072),
        danger=0.512, keep=15.659, tempo=-4.589, scale=191.0),
    # 102803 positions of 4000 games; held-out log-loss 0.536
    "basic": LeafModel(
        Weights(out=-30.746, hole=1.000, home=-21.081, settled=137.467, bind=-18.146,
                block=-18.146, few_out=73.536, joker_keep=7.730, joker_endgame=9.385,
                come_out_keep=1.205, small_keep=-0.150),
        danger=0.545, keep=15.626, tempo=-11.815, scale=240.7),
    # 102803 positions of 4000 games; held-out log-loss 0.536
    "traditional": LeafModel(
        Weights(out=-30.746, hole=1.000, home=-21.081, settled=137.467, bind=-18.146,
                block=-18.146, few_out=73.536, joker_keep=7.730, joker_endgame=9.385,
                come_out_keep=1.205, small_keep=-0.150),
        danger=0.545, keep=15.626, tempo=-11.815, scale=240.7),
    # 95871 positions of 4000 games; held-out log-loss 0.539
    "havasu": LeafModel(
        Weights(out=-17.467, hole=1.000, home=-0.213, settled=78.123, bind=-9.313,
                block=-9.313, few_out=51.033, joker_keep=6.640, joker_endgame=7.315,
                come_out_keep=0.770, small_keep=-0.742),
        danger=0.841, keep=15.575, tempo=14.705, scale=205.2),
    # 92867 positions of 4000 games; held-out log-loss 0.526
    "social-security": LeafModel(
        Weights(out=-34.436, hole=1.000, home=10.028, settled=75.549, bind=-11.748,
                block=-11.748, few_out=76.365, joker_keep=7.023, joker_endgame=10.566,
                come_out_keep=1.024, small_keep=-0.502),
        danger=0.959, keep=14.139, tempo=-6.664, scale=201.5),
    # 76054 positions of 4000 games; held-out log-loss 0.572
    "arizona": LeafModel(
        Weights(out=10.705, hole=1.000, home=3.136, settled=52.166, bind=0.747, block=0.747,
                few_out=31.445, joker_keep=9.950, joker_endgame=11.243, come_out_keep=0.764,
                small_keep=-0.574),
        danger=0.774, keep=12.717, tempo=16.865, scale=222.9),
    # 90575 positions of 4000 games; held-out log-loss 0.610
    "kilpatrick": LeafModel(
        Weights(out=0.500, hole=1.000, home=-26.980, settled=98.221, bind=-16.438,
                block=-16.438, few_out=45.725, joker_keep=8.678, joker_endgame=13.627,
                come_out_keep=1.223, small_keep=-0.603),
        danger=0.514, keep=14.956, tempo=14.420, scale=292.4),
    # 91739 positions of 4000 games; held-out log-loss 0.580
    "north-carolina": LeafModel(
        Weights(out=-52.480, hole=1.000, home=56.328, settled=64.991, bind=1.020,
                block=1.020, few_out=90.411, joker_keep=4.838, joker_endgame=7.765,
                come_out_keep=0.602, small_keep=-0.880),
        danger=0.629, keep=17.437, tempo=-5.286, scale=262.6),
    # 250615 positions of 4000 games; held-out log-loss 0.523
    "bluffing-joker": LeafModel(
        Weights(out=-54.378, hole=1.000, home=98.746, settled=122.162, bind=-2.143,
                block=-2.143, few_out=179.779, joker_keep=232.629, joker_endgame=362.683,
                come_out_keep=-12.095, small_keep=-1.833),
        danger=1.916, keep=2.308, tempo=-38.949, scale=733.2),
}
