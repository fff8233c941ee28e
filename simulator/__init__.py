"""Simulator: the headless world, the pygame front end, co-simulation and scripted sessions."""
