"""``cakeparty serve-ssh``: the app for anyone with an SSH client.

Every connection runs the real app in its own process on its own pseudo-terminal; the
player's SSH key decides whose settings, game key and journals that process uses.
"""
