"""``cakeparty serve-ssh``: the app for anyone with an SSH client.

Every connection runs the real app in its own process on its own pseudo-terminal; the
player's SSH key decides whose settings, game key and journals that process uses.
"""

import warnings

# asyncssh names the DSA key classes of the cryptography library when it is imported, and
# cryptography (from its 46th release) warns of each such name: five warnings about the
# library's own code, on the console of every server start, that its operator can do
# nothing about
warnings.filterwarnings("ignore", message="DSA is deprecated", module="asyncssh")

#: seconds a connection has to log in
LOGIN_TIMEOUT = 30
#: seconds between the checks that a quiet connection is still there (its app then ends
#: after KEEPALIVE_CHECKS unanswered, and a game it held can be taken up again)
KEEPALIVE = 15
KEEPALIVE_CHECKS = 3
#: connections at once that have not logged in yet; when all are taken, a newcomer from an
#: address holding fewer takes the place of the oldest of the address holding the most
MAX_LOGINS = 64
#: … of them from one address (an IPv6 /64), so that one cannot take every place
MAX_LOGINS_FROM = 8
