"""The games. Importing this package registers every one of them."""

from cakeparty.core.games import (
    cake_duel,  # noqa: F401
    cake_master,  # noqa: F401
    cake_of_doom,  # noqa: F401
    cookies_battle,  # noqa: F401
)
