"""The scanner: photo -> board file. One module per pipeline stage, one plugin per game.

Stages (pure functions on numpy arrays, each returning a typed result and able to draw a debug overlay):
load -> locate -> rectify -> grid/lattice -> classify -> board. Game plugins in ``scanner.games``.
"""
