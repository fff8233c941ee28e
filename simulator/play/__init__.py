"""The play layer: what every game shares, written once and driven by the game's descriptor
(simulator.games): the OpenSpiel-style game and state (`state`), the playtest command's options
and figures (`playtest`).
"""
